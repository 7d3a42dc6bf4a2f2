/**
 * `axis agents`: every agent name a config may use — the built-in adapters and the ACP presets — with
 * what each one needs (a binary on PATH, variables, an npm package) and whether its command is found
 * here, the way a run looks for it. Reads no config.
 */
import { resolveBinary } from '../../adapters/binary.js';
import { BUILTIN_AGENT_NAMES, agentCapabilities } from '../../config/agents.js';
import { ACP_PRESETS } from '../../config/catalogue.js';
import { padEndWidth, textWidth } from '../../util/width.js';

const BUILTIN: Record<string, { command: string; bin?: string; env: string; npm?: string }> = {
  'claude-code': {
    command: 'claude',
    bin: 'claude',
    env: 'ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN (or a `claude` login)',
    npm: '@anthropic-ai/claude-code',
  },
  codex: {
    command: 'codex',
    bin: 'codex',
    env: 'OPENAI_API_KEY or CODEX_API_KEY (or `codex login`)',
    npm: '@openai/codex',
  },
  gemini: {
    command: 'gemini',
    bin: 'gemini',
    env: 'GEMINI_API_KEY or GOOGLE_API_KEY',
    npm: '@google/gemini-cli',
  },
  'qwen-code': {
    command: 'qwen',
    bin: 'qwen',
    env: 'OPENAI_API_KEY (+ OPENAI_BASE_URL, OPENAI_MODEL)',
    npm: '@qwen-code/qwen-code',
  },
  opencode: {
    command: 'opencode',
    bin: 'opencode',
    env: "the key of the model's provider: OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or OPENROUTER_API_KEY",
    npm: 'opencode-ai',
  },
  acp: { command: '"command" you set', env: 'what the agent needs, under "env"' },
  command: { command: '"command" you set', env: 'what the agent needs, under "env"' },
};

export interface AgentRow {
  name: string;
  kind: string;
  command: string;
  needs: string;
  npm: string;
  skills: boolean;
  /** The command is found on PATH or in node_modules/.bin (null: the entry names its own command). */
  installed: boolean | null;
  /** Where it was found. */
  path?: string;
}

/** Found the way a run finds it: PATH, then node_modules/.bin above the installed AXIS. */
function located(bin: string | undefined): Pick<AgentRow, 'installed' | 'path'> {
  if (!bin) return { installed: null };
  const path = resolveBinary(bin, { path: process.env.PATH });
  return path ? { installed: true, path } : { installed: false };
}

export function agentRows(): AgentRow[] {
  const rows: AgentRow[] = BUILTIN_AGENT_NAMES.map((name) => {
    const b = BUILTIN[name]!;
    return {
      name,
      kind: 'built-in',
      command: b.command,
      needs: b.env,
      npm: b.npm ?? '',
      skills: agentCapabilities(name).acceptsSkills,
      ...located(b.bin),
    };
  });
  for (const [name, p] of Object.entries(ACP_PRESETS)) {
    rows.push({
      name,
      kind: 'acp preset',
      command: [p.command, ...p.args].join(' '),
      needs: p.env.length ? `${p.env.join(', ')} (list under "env")` : '—',
      npm: p.npm ?? '',
      skills: false,
      ...located(p.command),
    });
  }
  return rows;
}

export default async function agents(opts: { json?: boolean }): Promise<number> {
  const rows = agentRows();
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const head = ['Agent', 'Kind', 'Command', 'Installed', 'Needs', 'npm package'];
  const installed = (r: AgentRow) => (r.installed === null ? '—' : r.installed ? 'yes' : 'no');
  const table = [head, ...rows.map((r) => [r.name, r.kind, r.command, installed(r), r.needs, r.npm || '—'])];
  const widths = head.map((_, i) => Math.max(...table.map((r) => textWidth(r[i]!))));
  const lines = table.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : padEndWidth(c, widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(
    `${lines.join('\n')}\n\nInstalled: the command is on PATH or in node_modules/.bin, where a run looks for it. ` +
      'Presets run through the "acp" adapter; override "command"/"args" in the agent entry. ' +
      'Any other ACP agent: { "agent": "acp", "command": "<executable>", "args": [...] }.\n',
  );
  return 0;
}
