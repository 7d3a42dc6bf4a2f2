/** What each built-in agent accepts in its config entry. Custom module adapters accept everything. */
export interface AgentCapabilities {
  /** `model` is passed to the CLI. */
  acceptsModel: boolean;
  /** `flags` are passed to the CLI. */
  acceptsFlags: boolean;
  /** The entry must name the executable with `command` (there is no built-in binary). */
  needsCommand: boolean;
  /** AXIS installs skills where this agent discovers them. */
  acceptsSkills: boolean;
}

export const BUILTIN_AGENTS = {
  'claude-code': { acceptsModel: true, acceptsFlags: true, needsCommand: false, acceptsSkills: true },
  codex: { acceptsModel: true, acceptsFlags: true, needsCommand: false, acceptsSkills: true },
  gemini: { acceptsModel: true, acceptsFlags: true, needsCommand: false, acceptsSkills: true },
  'qwen-code': { acceptsModel: true, acceptsFlags: true, needsCommand: false, acceptsSkills: true },
  opencode: { acceptsModel: true, acceptsFlags: true, needsCommand: false, acceptsSkills: true },
  acp: { acceptsModel: false, acceptsFlags: false, needsCommand: true, acceptsSkills: false },
  command: { acceptsModel: false, acceptsFlags: false, needsCommand: true, acceptsSkills: false },
} as const satisfies Record<string, AgentCapabilities>;

export type BuiltinAgentName = keyof typeof BUILTIN_AGENTS;

const READS_STREAM = 'AXIS reads the run from its stream-json output';
const READS_EVENTS = 'AXIS reads the run from its JSON events';
const MODEL = 'set "model" instead';

/**
 * Flags AXIS passes a built-in CLI itself (src/adapters), by name without dashes, with why a user flag of
 * the same name is refused: it would make the run unreadable (a "completed" job with no answer), pass
 * the model behind `model`'s back, or give the agent MCP servers AXIS did not declare.
 */
const FIXED_FLAGS: Partial<Record<BuiltinAgentName, Record<string, [flag: string, why: string]>>> = {
  'claude-code': {
    p: ['-p', 'AXIS runs it headless'],
    print: ['--print', 'AXIS runs it headless'],
    'output-format': ['--output-format', READS_STREAM],
    'input-format': ['--input-format', 'AXIS passes the prompt as plain text'],
    model: ['--model', MODEL],
    'mcp-config': ['--mcp-config', 'only the servers mcp_servers declares are given to the agent'],
    'strict-mcp-config': [
      '--strict-mcp-config',
      'only the servers mcp_servers declares are given to the agent',
    ],
  },
  codex: { json: ['--json', READS_EVENTS], m: ['-m', MODEL], model: ['--model', MODEL] },
  gemini: {
    'output-format': ['--output-format', READS_STREAM],
    o: ['-o', READS_STREAM],
    m: ['-m', MODEL],
    model: ['--model', MODEL],
  },
  'qwen-code': {
    'output-format': ['--output-format', READS_STREAM],
    o: ['-o', READS_STREAM],
    'input-format': ['--input-format', 'AXIS passes the prompt as plain text'],
    m: ['-m', MODEL],
    model: ['--model', MODEL],
  },
  opencode: { format: ['--format', READS_EVENTS], m: ['-m', MODEL], model: ['--model', MODEL] },
};

/** Why a user flag (`output-format`, `--model`, `-m`) of a built-in agent is refused, if it is. */
export function fixedFlagRefusal(agent: string, key: string): string | undefined {
  if (!isBuiltinAgent(agent)) return undefined;
  const fixed = FIXED_FLAGS[agent]?.[key.replace(/^-+/, '')];
  return fixed && `AXIS passes ${fixed[0]} to ${agent} itself (${fixed[1]}); remove it from flags`;
}

export const BUILTIN_AGENT_NAMES = Object.keys(BUILTIN_AGENTS) as BuiltinAgentName[];

/** A custom module adapter gets the skills in its run context and decides itself. */
const CUSTOM: AgentCapabilities = {
  acceptsModel: true,
  acceptsFlags: true,
  needsCommand: false,
  acceptsSkills: true,
};

export function isBuiltinAgent(name: string): name is BuiltinAgentName {
  return Object.hasOwn(BUILTIN_AGENTS, name);
}

/** Capabilities of a built-in, or of a custom adapter (anything else). */
export function agentCapabilities(name: string): AgentCapabilities {
  return isBuiltinAgent(name) ? BUILTIN_AGENTS[name] : CUSTOM;
}

/** `anthropic/claude-3.5 sonnet` → `anthropic-claude-3.5-sonnet`, safe in file names and filters. */
export function sanitizeModel(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
}

/** Identity of an agent entry: `name`, else `agent`, else `agent|<sanitized model>`; always lowercase. */
export function agentIdentity(entry: { agent: string; name?: string; model?: string }): string {
  if (entry.name) return entry.name.toLowerCase();
  const base = entry.agent.toLowerCase();
  const model = entry.model ? sanitizeModel(entry.model) : '';
  return model ? `${base}|${model.toLowerCase()}` : base;
}
