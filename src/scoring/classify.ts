/**
 * Category of each interaction: environment (filesystem, shell), service (external APIs, HTTP, MCP) or
 * agent (reasoning, planning, tool discovery). Rules in order, all case-insensitive
 * (docs/scoring.md#classification). Nothing falls through silently: an unknown tool is `service` with
 * `unclassified: true`.
 */
import picomatch from 'picomatch';
import { shellScript } from '../transcript/util.js';
import { networkCommand } from './network-commands.js';
import { builtinTools, READ_COMMANDS, TOOL_TABLE } from './tool-table.js';
import type { Category, Classification, ClassifiedInteraction, Interaction, ToolKind } from './types.js';

/** Longest command or path string looked at; longer ones are cut (heredoc bodies and the like). */
const SCAN_CHARS = 65_536;

const AGENT_CONFIG =
  /(?:^|[\\/\s'"=:])\.(?:claude|codex|gemini|qwen|opencode|cursor|agents)(?:[\\/\s'"]|$)|(?:^|[\\/\s'"=:])(?:claude|agents|gemini|qwen)\.md\b|(?:^|[\\/\s'"=:])skill\.md\b|(?:^|[\\/\s'"=:])opencode\.jsonc?\b/i;

const SEGMENT_SPLIT = /&&|\|\||[;|&\n()`]/;
const WRAPPER_WORDS = new Set(['sudo', 'env', 'time', 'nohup', 'exec', 'command', 'npx', 'bunx', 'xargs']);
const READ_SET = new Set(READ_COMMANDS);

const SERVICE_WORDS = ['fetch', 'http', 'request', 'download', 'upload', 'curl', 'wget', 'browser', 'browse'];
const SERVICE_TOKENS = ['api', 'url', 'web'];
const AGENT_WORDS = ['todo', 'plan', 'task', 'think', 'memory', 'skill', 'agent', 'goal', 'question'];
const AGENT_TOKENS = ['ask'];
const ENV_WORDS = [
  'read',
  'write',
  'file',
  'folder',
  'path',
  'search',
  'find',
  'grep',
  'glob',
  'list',
  'edit',
  'patch',
  'exec',
  'shell',
  'bash',
  'command',
  'terminal',
];
const ENV_TOKENS = ['dir', 'ls', 'run', 'cmd'];
const ENV_WORD_KIND: Readonly<Record<string, ToolKind>> = {
  read: 'read',
  list: 'read',
  ls: 'read',
  dir: 'read',
  search: 'search',
  find: 'search',
  grep: 'search',
  glob: 'search',
  write: 'write',
  edit: 'write',
  patch: 'write',
  exec: 'shell',
  shell: 'shell',
  bash: 'shell',
  command: 'shell',
  terminal: 'shell',
  run: 'shell',
  cmd: 'shell',
};

const ACP_KINDS: Readonly<Record<string, { category: Category; kind: ToolKind }>> = {
  read: { category: 'environment', kind: 'read' },
  search: { category: 'environment', kind: 'search' },
  edit: { category: 'environment', kind: 'write' },
  delete: { category: 'environment', kind: 'write' },
  move: { category: 'environment', kind: 'write' },
  execute: { category: 'environment', kind: 'shell' },
  fetch: { category: 'service', kind: 'fetch' },
  think: { category: 'agent', kind: 'plan' },
  switch_mode: { category: 'agent', kind: 'plan' },
};

/** What the run's configuration says about where tools come from. */
export interface ClassifyContext {
  /** Adapter of the agent under test (`claude-code`, `codex`, …): its own built-in tools are known by name. */
  adapter?: string;
  /** Configured MCP server names (config and scenario `mcp_servers`). */
  mcpServers?: readonly string[];
  /** The config's `classify` rules: tool-name glob → category, first match wins. */
  rules?: Readonly<Record<string, Category>>;
}

/** A context prepared for one run's interactions: compiled globs, server prefixes longest first. */
interface Prepared {
  builtins?: ReadonlySet<string>;
  adapter?: string;
  servers: string[];
  rules: readonly Rule[];
}

type Rule = { glob: string; category: Category; test: (name: string) => boolean };

/**
 * Compiled `classify` rules by the config's rules object, which every job of a run shares: each glob is
 * compiled once per run, not once per scored job (picomatch builds a regular expression per glob).
 */
const compiledRules = new WeakMap<object, readonly Rule[]>();

function rulesOf(rules: Readonly<Record<string, Category>> | undefined): readonly Rule[] {
  if (!rules) return [];
  let compiled = compiledRules.get(rules);
  if (!compiled) {
    compiled = Object.entries(rules).map(([glob, category]) => ({
      glob,
      category,
      test: picomatch(glob, { nocase: true, dot: true }),
    }));
    compiledRules.set(rules, compiled);
  }
  return compiled;
}

function prepare(ctx: ClassifyContext = {}): Prepared {
  const builtins = ctx.adapter ? builtinTools(ctx.adapter) : undefined;
  return {
    ...(builtins ? { builtins, adapter: ctx.adapter } : {}),
    servers: [
      ...new Set(
        (ctx.mcpServers ?? [])
          .map((s) => s.toLowerCase())
          // opencode and others sanitise server names in tool names (`my server` → `my_server_tool`).
          .flatMap((s) => [s, s.replace(/[^a-z0-9]/g, '_')])
          .filter((s) => s !== ''),
      ),
    ].sort((a, b) => b.length - a.length),
    rules: rulesOf(ctx.rules),
  };
}

export function classifyInteractions(
  interactions: readonly Interaction[],
  context?: ClassifyContext,
): ClassifiedInteraction[] {
  const out = new Array<ClassifiedInteraction>(interactions.length);
  const ctx = prepare(context);
  for (let i = 0; i < interactions.length; i++) {
    const ix = interactions[i]!;
    const c = classifyInteraction(ix, ctx);
    // Explicit fields rather than a spread: one object shape, several times faster on large runs.
    const classified: ClassifiedInteraction = {
      id: ix.id,
      type: ix.type,
      entryIndices: ix.entryIndices,
      startMs: ix.startMs,
      durationMs: ix.durationMs,
      durationSource: ix.durationSource,
      contextBytes: ix.contextBytes,
      outcome: ix.outcome,
      categories: c.categories,
      unclassified: c.unclassified,
      classifiedBy: c.rule,
    };
    if (ix.failure) classified.failure = ix.failure;
    if (ix.summary !== undefined) classified.summary = ix.summary;
    if (ix.thinkingOnly !== undefined) classified.thinkingOnly = ix.thinkingOnly;
    if (ix.tool) classified.tool = ix.tool;
    if (c.toolKind) classified.toolKind = c.toolKind;
    out[i] = classified;
  }
  return out;
}

export function classifyInteraction(ix: Interaction, ctx?: ClassifyContext | Prepared): Classification {
  if (ix.type === 'reasoning') return { categories: ['agent'], unclassified: false, rule: 'reasoning' };
  if (ix.type === 'error') return { categories: ['agent'], unclassified: false, rule: 'agent-error' };
  const tool = ix.tool;
  return classifyTool(tool?.name ?? '', tool?.input, tool?.declaredKind, ctx);
}

/**
 * Category of one tool call. Provenance before names: the user's `classify` rules, then configured MCP
 * servers, then the agent CLI's own built-in tools (anything else it ran came from an MCP server or an
 * extension: a service), and only for agents AXIS does not know, name heuristics.
 */
export function classifyTool(
  name: string,
  input: unknown,
  declaredKind?: string,
  context?: ClassifyContext | Prepared,
): Classification {
  const ctx = context && 'servers' in context ? context : prepare(context);
  const lower = name.trim().toLowerCase();
  if (lower === '')
    return { categories: ['service'], unclassified: true, rule: 'no-tool-name', toolKind: 'unknown' };

  const known = TOOL_TABLE[lower];
  const user = ctx.rules.find((r) => r.test(name.trim()));
  if (user) {
    const kind = known?.kind ?? (user.category === 'service' ? 'mcp' : 'unknown');
    return refine(user.category, kind, `config:${user.glob}`, input);
  }

  const server = ctx.servers.find((s) => isServerTool(lower, s));
  if (server)
    return { categories: ['service'], unclassified: false, rule: `mcp-server:${server}`, toolKind: 'mcp' };

  if (known && (!ctx.builtins || ctx.builtins.has(lower)))
    return refine(known.category, known.kind, `table:${lower}`, input);

  if (/^mcp(?:__|[_.:-])/.test(lower) || lower.includes('__'))
    return { categories: ['service'], unclassified: false, rule: 'mcp-name', toolKind: 'mcp' };

  const acp = declaredKind ? ACP_KINDS[declaredKind.toLowerCase()] : undefined;
  if (acp) return refine(acp.category, acp.kind, `declared-kind:${declaredKind!.toLowerCase()}`, input);

  if (ctx.builtins)
    return {
      categories: ['service'],
      unclassified: false,
      rule: `not-built-in:${ctx.adapter}`,
      toolKind: 'mcp',
    };

  const tokens = nameTokens(name);
  const hit = (words: string[], exact: string[]): string | undefined =>
    words.find((w) => lower.includes(w)) ?? exact.find((w) => tokens.includes(w));
  let word = hit(SERVICE_WORDS, SERVICE_TOKENS);
  if (word)
    return { categories: ['service'], unclassified: false, rule: `heuristic:${word}`, toolKind: 'fetch' };
  word = hit(AGENT_WORDS, AGENT_TOKENS);
  if (word)
    return { categories: ['agent'], unclassified: false, rule: `heuristic:${word}`, toolKind: 'plan' };
  word = hit(ENV_WORDS, ENV_TOKENS);
  if (word) return refine('environment', ENV_WORD_KIND[word] ?? 'unknown', `heuristic:${word}`, input);
  return { categories: ['service'], unclassified: true, rule: 'unknown-tool', toolKind: 'unknown' };
}

/** Input-based refinements: shell calls to HTTP clients, reads of the agent's own configuration. */
function refine(category: Category, kind: ToolKind, rule: string, input: unknown): Classification {
  if (category === 'environment') {
    if (kind === 'shell') {
      const command = shellCommand(input);
      if (command !== undefined) {
        const words = commandWords(command);
        const remote = networkCommand(command);
        if (remote)
          return {
            categories: ['environment', 'service'],
            unclassified: false,
            rule: `network-command:${remote}`,
            toolKind: kind,
          };
        if (words.length > 0 && words.every((w) => READ_SET.has(w)) && AGENT_CONFIG.test(command))
          return { categories: ['agent'], unclassified: false, rule: 'agent-config', toolKind: 'read' };
      }
    } else if ((kind === 'read' || kind === 'search') && mentionsAgentConfig(input)) {
      return { categories: ['agent'], unclassified: false, rule: 'agent-config', toolKind: kind };
    }
  }
  return { categories: [category], unclassified: false, rule, toolKind: kind };
}

/** The command line of a shell tool call (`command`, `cmd`; arrays joined), unwrapped from `bash -lc '…'`. */
export function shellCommand(input: unknown): string | undefined {
  let raw: unknown = input;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const rec = input as Record<string, unknown>;
    raw = rec.command ?? rec.cmd;
  }
  let command: string | undefined;
  if (typeof raw === 'string') command = raw;
  else if (Array.isArray(raw) && raw.every((p) => typeof p === 'string')) {
    const parts = raw as string[];
    // ["bash", "-lc", "<script>"]: the script is what runs.
    command =
      parts.length === 3 && /(?:^|\/)(?:ba|z|da)?sh$/.test(parts[0]!) && /^-l?c$/.test(parts[1]!)
        ? parts[2]!
        : parts.join(' ');
  }
  if (command === undefined) return undefined;
  if (command.length > SCAN_CHARS) command = command.slice(0, SCAN_CHARS);
  return shellScript(command);
}

/** First word of each simple command (split on ; | & && || newlines), lower-case, without its path. */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  for (const segment of command.split(SEGMENT_SPLIT)) {
    const parts = segment.trim().split(/\s+/);
    let k = 0;
    while (k < parts.length && (WRAPPER_WORDS.has(parts[k]!.toLowerCase()) || /^\w+=/.test(parts[k]!))) k++;
    const word = parts[k];
    if (!word) continue;
    const slash = word.lastIndexOf('/');
    words.push((slash >= 0 ? word.slice(slash + 1) : word).toLowerCase());
  }
  return words;
}

function mentionsAgentConfig(input: unknown): boolean {
  if (typeof input === 'string') return AGENT_CONFIG.test(input.slice(0, SCAN_CHARS));
  if (typeof input !== 'object' || input === null) return false;
  for (const value of Object.values(input as Record<string, unknown>)) {
    if (typeof value === 'string') {
      if (AGENT_CONFIG.test(value.slice(0, SCAN_CHARS))) return true;
    } else if (Array.isArray(value)) {
      for (const v of value)
        if (typeof v === 'string' && AGENT_CONFIG.test(v.slice(0, SCAN_CHARS))) return true;
    }
  }
  return false;
}

/**
 * `mcp__linear__create` (Claude Code, Codex, Qwen Code), `mcp_linear_create` (Gemini CLI), `linear_create`
 * (opencode), `linear__create`, `linear.create`, `linear:create`, `linear/create`.
 */
function isServerTool(lower: string, server: string): boolean {
  if (lower.startsWith(`mcp__${server}__`) || lower.startsWith(`mcp_${server}_`)) return true;
  if (!lower.startsWith(server) || lower.length <= server.length) return false;
  return /^(?:__|[_.:/-])./.test(lower.slice(server.length));
}

/** `getApiKey`, `get_api-key` → ['get', 'api', 'key']. */
function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');
}
