/**
 * Category of each interaction: environment (filesystem, shell), service (external APIs, HTTP, MCP) or
 * agent (reasoning, planning, tool discovery). Rules in order, all case-insensitive
 * (docs/scoring.md#classification). Nothing falls through silently: an unknown tool is `service` with
 * `unclassified: true`.
 */
import { shellScript } from '../transcript/util.js';
import { HTTP_CLIENTS, READ_COMMANDS, TOOL_TABLE } from './tool-table.js';
import type { Category, Classification, ClassifiedInteraction, Interaction, ToolKind } from './types.js';

/** Longest command or path string looked at; longer ones are cut (heredoc bodies and the like). */
const SCAN_CHARS = 65_536;

const AGENT_CONFIG =
  /(?:^|[\\/\s'"=:])\.(?:claude|codex|gemini|qwen|opencode|cursor|agents)(?:[\\/\s'"]|$)|(?:^|[\\/\s'"=:])(?:claude|agents|gemini|qwen)\.md\b|(?:^|[\\/\s'"=:])skill\.md\b|(?:^|[\\/\s'"=:])opencode\.jsonc?\b/i;

const SEGMENT_SPLIT = /&&|\|\||[;|&\n()`]/;
const WRAPPER_WORDS = new Set(['sudo', 'env', 'time', 'nohup', 'exec', 'command', 'npx', 'bunx', 'xargs']);
const HTTP_SET = new Set(HTTP_CLIENTS);
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

export function classifyInteractions(interactions: readonly Interaction[]): ClassifiedInteraction[] {
  const out = new Array<ClassifiedInteraction>(interactions.length);
  for (let i = 0; i < interactions.length; i++) {
    const ix = interactions[i]!;
    const c = classifyInteraction(ix);
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

export function classifyInteraction(ix: Interaction): Classification {
  if (ix.type === 'reasoning') return { categories: ['agent'], unclassified: false, rule: 'reasoning' };
  if (ix.type === 'error') return { categories: ['agent'], unclassified: false, rule: 'agent-error' };
  const tool = ix.tool;
  return classifyTool(tool?.name ?? '', tool?.input, tool?.declaredKind);
}

/** Category of one tool call from its name, input and (optional) ACP-declared kind. */
export function classifyTool(name: string, input: unknown, declaredKind?: string): Classification {
  const lower = name.trim().toLowerCase();
  if (lower === '')
    return { categories: ['service'], unclassified: true, rule: 'no-tool-name', toolKind: 'unknown' };

  const known = TOOL_TABLE[lower];
  if (known) return refine(known.category, known.kind, `table:${lower}`, input);

  if (/^mcp(?:__|[_.:-])/.test(lower) || lower.includes('__'))
    return { categories: ['service'], unclassified: false, rule: 'mcp-name', toolKind: 'mcp' };

  const acp = declaredKind ? ACP_KINDS[declaredKind.toLowerCase()] : undefined;
  if (acp) return refine(acp.category, acp.kind, `declared-kind:${declaredKind!.toLowerCase()}`, input);

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
        const client = words.find((w) => HTTP_SET.has(w));
        if (client)
          return {
            categories: ['environment', 'service'],
            unclassified: false,
            rule: `http-client:${client}`,
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

/** `getApiKey`, `get_api-key` → ['get', 'api', 'key']. */
function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');
}
