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
