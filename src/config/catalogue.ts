/**
 * Named presets over the `acp` adapter: agent CLIs that speak the Agent Client Protocol, with the command
 * that starts them in ACP mode, the variables they need and the npm package where one exists. Writing
 * `"agents": ["goose"]` is `{ "agent": "acp", "name": "goose", "command": "goose", "args": ["acp"] }`.
 * Pure data.
 */
export interface AcpPreset {
  command: string;
  args: string[];
  /** Variables the agent needs; list them under `env` so AXIS passes them through. */
  env: string[];
  /** npm package that installs the command, when there is one. */
  npm?: string;
  /** Variables AXIS sets for it. */
  set?: Record<string, string>;
  /**
   * The agent whose settings AXIS writes into the job's isolated home, as its built-in adapter does:
   * `claude` (CLAUDE_CONFIG_DIR, telemetry off, retries), `codex` (CODEX_HOME/config.toml with the
   * provider from OPENAI_BASE_URL). Without it the agent's settings are its own business.
   */
  home?: 'claude' | 'codex';
  /** false: the agent sends no token counts over ACP (seen from the pinned bridge), so token limits cannot apply. */
  tokens?: false;
  about: string;
}

export const ACP_PRESETS: Record<string, AcpPreset> = {
  'claude-acp': {
    command: 'claude-code-acp',
    args: [],
    env: ['ANTHROPIC_API_KEY'],
    npm: '@zed-industries/claude-code-acp',
    home: 'claude',
    tokens: false,
    about: 'Claude Code through the Zed ACP bridge',
  },
  'claude-sdk': {
    command: 'claude-code-acp',
    args: [],
    env: ['ANTHROPIC_API_KEY'],
    npm: '@zed-industries/claude-code-acp',
    home: 'claude',
    tokens: false,
    about: "upstream's name for claude-acp",
  },
  'codex-acp': {
    command: 'codex-acp',
    args: [],
    env: ['OPENAI_API_KEY'],
    npm: '@zed-industries/codex-acp',
    home: 'codex',
    tokens: false,
    about: 'Codex through the Zed ACP bridge',
  },
  'codex-sdk': {
    command: 'codex-acp',
    args: [],
    env: ['OPENAI_API_KEY'],
    npm: '@zed-industries/codex-acp',
    home: 'codex',
    tokens: false,
    about: "upstream's name for codex-acp",
  },
  goose: { command: 'goose', args: ['acp'], env: [], about: 'Block goose (GitHub release binary)' },
  'cursor-agent': { command: 'agent', args: ['acp'], env: ['CURSOR_API_KEY'], about: 'Cursor CLI' },
  // A login on the host is not in the job's isolated HOME: these take their non-interactive tokens.
  copilot: {
    command: 'copilot',
    args: ['--acp'],
    env: ['COPILOT_GITHUB_TOKEN'],
    npm: '@github/copilot',
    about: 'GitHub Copilot CLI (GH_TOKEN or GITHUB_TOKEN also work)',
  },
  'kiro-cli': { command: 'kiro-cli', args: ['acp'], env: ['KIRO_API_KEY'], about: 'Kiro CLI (API key)' },
  auggie: {
    command: 'auggie',
    args: ['--acp'],
    env: ['AUGMENT_SESSION_AUTH'],
    npm: '@augmentcode/auggie',
    about: 'Augment Code',
  },
  cline: { command: 'cline', args: ['--acp'], env: [], npm: 'cline', about: 'Cline CLI' },
  'factory-droid': {
    command: 'droid-acp',
    args: [],
    env: ['FACTORY_API_KEY'],
    npm: '@yaonyan/droid-acp',
    about: 'Factory Droid',
  },
  blackbox: {
    command: 'blackbox',
    args: ['--experimental-acp'],
    env: ['BLACKBOX_API_KEY'],
    about: 'Blackbox CLI',
  },
  'fast-agent': { command: 'fast-agent-acp', args: [], env: [], about: 'fast-agent' },
  'mistral-vibe': { command: 'vibe-acp', args: [], env: ['MISTRAL_API_KEY'], about: 'Mistral Vibe' },
  poolside: { command: 'pool', args: ['acp'], env: ['POOLSIDE_API_KEY'], about: 'Poolside' },
  vtcode: {
    command: 'vtcode',
    args: ['acp'],
    env: [],
    set: { VT_ACP_ENABLED: '1', VT_ACP_ZED_ENABLED: '1' },
    about: 'VT Code',
  },
  stakpak: { command: 'stakpak', args: ['acp'], env: [], about: 'Stakpak' },
  kimi: { command: 'kimi', args: ['acp'], env: [], about: 'Kimi CLI' },
  openhands: { command: 'openhands', args: ['acp'], env: [], about: 'OpenHands CLI' },
  kilo: { command: 'kilo', args: ['acp'], env: [], about: 'Kilo Code CLI' },
  qoder: { command: 'qodercli', args: ['--acp'], env: ['QODER_PERSONAL_ACCESS_TOKEN'], about: 'Qoder CLI' },
};

export const PRESET_NAMES = Object.keys(ACP_PRESETS);

export function isPreset(name: string): boolean {
  return Object.hasOwn(ACP_PRESETS, name);
}
