/**
 * `axis agents`: every agent name a config may use — the built-in adapters and the ACP presets — with
 * what each one needs (a binary on PATH, variables, an npm package). Reads no config.
 */
import { BUILTIN_AGENT_NAMES, agentCapabilities } from '../../config/agents.js';
import { ACP_PRESETS } from '../../config/catalogue.js';

const BUILTIN: Record<string, { command: string; env: string; npm?: string }> = {
  'claude-code': {
    command: 'claude',
    env: 'ANTHROPIC_API_KEY (or a `claude` login)',
    npm: '@anthropic-ai/claude-code',
  },
  codex: {
    command: 'codex',
    env: 'OPENAI_API_KEY or CODEX_API_KEY (or `codex login`)',
    npm: '@openai/codex',
  },
  gemini: { command: 'gemini', env: 'GEMINI_API_KEY', npm: '@google/gemini-cli' },
  'qwen-code': {
    command: 'qwen',
    env: 'OPENAI_API_KEY (+ OPENAI_BASE_URL, OPENAI_MODEL)',
    npm: '@qwen-code/qwen-code',
  },
  opencode: { command: 'opencode', env: "the key of the model's provider", npm: 'opencode-ai' },
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
  const head = ['Agent', 'Kind', 'Command', 'Needs', 'npm package'];
  const table = [head, ...rows.map((r) => [r.name, r.kind, r.command, r.needs, r.npm || '—'])];
  const widths = head.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const lines = table.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  process.stdout.write(
    `${lines.join('\n')}\n\nPresets run through the "acp" adapter; override "command"/"args" in the agent entry. ` +
      'Any other ACP agent: { "agent": "acp", "command": "<executable>", "args": [...] }.\n',
  );
  return 0;
}
