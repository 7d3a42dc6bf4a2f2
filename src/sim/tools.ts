/**
 * Maps a neutral tape tool onto the tool the agent actually offered: its name, its argument names, and
 * any required argument the tape does not mention (filled from the tool's JSON Schema). A tool the agent
 * does not offer is a loud failure, except that Codex (which offers only a shell) gets shell equivalents.
 */
import { dirname, posix } from 'node:path';
import { fillRequired } from './schema-fill.js';
import type { NeutralTool, NeutralToolKind } from './tape.js';
import type { JsonSchema, OfferedTool } from './types.js';

/**
 * Offered tool names tried in order for each neutral tool (Claude, Codex, Gemini/Qwen, opencode, ...).
 * `mcp__acp__*` are the Claude ACP bridge's file tools, which replace Claude Code's own when the ACP client
 * offers file access.
 */
export const TOOL_CANDIDATES: Record<Exclude<NeutralToolKind, 'mcp' | 'raw'>, string[]> = {
  shell: ['Bash', 'exec_command', 'run_shell_command', 'bash', 'shell', 'local_shell', 'shell_command'],
  write_file: ['Write', 'write_file', 'write', 'mcp__acp__Write'],
  read_file: ['Read', 'read_file', 'read', 'mcp__acp__Read'],
  edit_file: ['Edit', 'replace', 'edit', 'edit_file', 'mcp__acp__Edit'],
  fetch: ['WebFetch', 'web_fetch', 'webfetch', 'fetch'],
};

/** Shell tools of agents that offer no file tools at all (Codex): file tools become shell commands there. */
const SHELL_ONLY_TOOLS = ['exec_command', 'shell', 'local_shell', 'shell_command'];

const KEYS = {
  path: ['file_path', 'filePath', 'absolute_path', 'path'],
  command: ['command', 'cmd'],
  content: ['content', 'contents'],
  old: ['old_string', 'oldString', 'old_str', 'old'],
  new: ['new_string', 'newString', 'new_str', 'new'],
  url: ['url'],
};

export type MappedTool =
  | {
      ok: true;
      name: string;
      args: Record<string, unknown>;
      viaShell?: boolean;
      unresolvedPath?: string;
      /** The call loads this deferred tool (a `tool_search` call); the tape tool itself comes next turn. */
      loads?: string;
    }
  | { ok: false; message: string; wanted: string[]; offered: string[] };

function props(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  return (schema?.properties ?? {}) as Record<string, JsonSchema>;
}

/** The first candidate key the schema declares; the first candidate when the schema lists none. */
function pickKey(schema: JsonSchema | undefined, candidates: string[]): string {
  const p = props(schema);
  return candidates.find((k) => k in p) ?? (candidates[0] as string);
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** MCP tool names as the agents spell them: Claude/Codex/Qwen `mcp__s__t`, Gemini `mcp_s_t`, opencode `s_t`. */
export function mcpCandidates(server: string, tool: string): string[] {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_');
  const [s, t] = [clean(server), clean(tool)];
  return [`mcp__${s}__${t}`, `mcp_${s}_${t}`, `${s}__${t}`, `${s}_${t}`];
}

/** The loader agents offer for tools they list by name only (Qwen Code). */
export const TOOL_LOADER = 'tool_search';

/**
 * Tools an agent lists by name in its system prompt without offering them yet (Qwen Code's
 * "## Deferred Tools" section: `- "mcp__docs__echo": "…"`). They must be loaded with `tool_search`.
 */
export function deferredTools(system: string): string[] {
  const at = system.indexOf('## Deferred Tools');
  if (at === -1) return [];
  const next = system.indexOf('\n## ', at + 1);
  const section = system.slice(at, next === -1 ? undefined : next);
  return [...section.matchAll(/^- "([^"\n]+)":/gm)].map((m) => m[1] as string);
}

function loaderCall(wanted: string[], offered: Map<string, OfferedTool>, deferred: string[]) {
  const name = wanted.find((n) => deferred.includes(n));
  const loader = offered.get(TOOL_LOADER);
  if (!name || !loader) return null;
  return {
    ok: true as const,
    name: loader.name,
    args: fillRequired(loader.schema, { query: `select:${name}` }),
    loads: name,
  };
}

function shellCommandFor(tool: NeutralTool): string | null {
  if ('write_file' in tool) {
    const { path, content } = tool.write_file;
    const dir = dirname(path);
    const mkdir = dir === '.' || dir === '/' ? '' : `mkdir -p ${shellQuote(dir)} && `;
    return `${mkdir}printf '%s' ${shellQuote(content)} > ${shellQuote(path)}`;
  }
  if ('read_file' in tool) return `cat ${shellQuote(tool.read_file.path)}`;
  if ('edit_file' in tool) {
    const { path, old, new: replacement } = tool.edit_file;
    // node is on PATH wherever the npm-installed Codex runs; it replaces the first exact match.
    const script =
      'const fs=require("fs");const [p,a,b]=process.argv.slice(1);const s=fs.readFileSync(p,"utf8");' +
      'if(!s.includes(a)){console.error("edit: old text not found in "+p);process.exit(1)}' +
      'fs.writeFileSync(p,s.replace(a,()=>b))';
    return `node -e ${shellQuote(script)} ${shellQuote(path)} ${shellQuote(old)} ${shellQuote(replacement)}`;
  }
  if ('fetch' in tool) return `curl -fsSL ${shellQuote(tool.fetch.url)}`;
  return null;
}

function shellArgs(schema: JsonSchema | undefined, command: string): Record<string, unknown> {
  const key = pickKey(schema, KEYS.command);
  const isArray = String(props(schema)[key]?.type ?? '').toLowerCase() === 'array';
  return { [key]: isArray ? ['bash', '-lc', command] : command };
}

function short(s: string, n = 60): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

export function kindOf(tool: NeutralTool): NeutralToolKind {
  return Object.keys(tool)[0] as NeutralToolKind;
}

/** Human label for logs and errors: `shell "ls"`, `write_file out.txt`, `mcp docs/search`. */
export function describeTool(tool: NeutralTool): string {
  if ('shell' in tool) return `shell ${JSON.stringify(short(tool.shell, 40))}`;
  if ('write_file' in tool) return `write_file ${tool.write_file.path}`;
  if ('read_file' in tool) return `read_file ${tool.read_file.path}`;
  if ('edit_file' in tool) return `edit_file ${tool.edit_file.path}`;
  if ('fetch' in tool) return `fetch ${tool.fetch.url}`;
  if ('mcp' in tool) return `mcp ${tool.mcp.server}/${tool.mcp.tool}`;
  return `raw ${tool.raw.name}`;
}

/**
 * `deferred`: tool names the agent lists without offering (see deferredTools); a wanted MCP or raw tool
 * found there maps to the agent's `tool_search` call that loads it.
 */
export function mapTool(
  tool: NeutralTool,
  offered: OfferedTool[],
  cwd?: string,
  deferred: string[] = [],
): MappedTool {
  const byName = new Map(offered.map((t) => [t.name, t]));
  const offeredNames = offered.map((t) => t.name);

  if ('raw' in tool) {
    const t = byName.get(tool.raw.name);
    if (t) return { ok: true, name: t.name, args: { ...(tool.raw.args ?? {}) } };
    return loaderCall([tool.raw.name], byName, deferred) ?? missingTool(tool, [tool.raw.name], offeredNames);
  }
  if ('mcp' in tool) {
    const wanted = mcpCandidates(tool.mcp.server, tool.mcp.tool);
    const t = wanted.map((n) => byName.get(n)).find(Boolean);
    if (t) return { ok: true, name: t.name, args: fillRequired(t.schema, { ...(tool.mcp.args ?? {}) }) };
    return loaderCall(wanted, byName, deferred) ?? missingTool(tool, wanted, offeredNames);
  }

  const kind = kindOf(tool) as keyof typeof TOOL_CANDIDATES;
  const wanted = TOOL_CANDIDATES[kind];
  const native = wanted.map((n) => byName.get(n)).find(Boolean);
  if (!native) {
    const shell = SHELL_ONLY_TOOLS.map((n) => byName.get(n)).find(Boolean);
    const command = shell ? shellCommandFor(tool) : null;
    if (!shell || command === null) return missingTool(tool, wanted, offeredNames);
    return { ok: true, name: shell.name, args: shellArgs(shell.schema, command), viaShell: true };
  }
  return nativeCall(tool, native, cwd);
}

function missingTool(tool: NeutralTool, wanted: string[], offeredNames: string[]): MappedTool {
  return {
    ok: false,
    wanted,
    offered: offeredNames,
    message:
      `tape tool ${describeTool(tool)} needs one of ${wanted.join(', ')}, but the agent offered ` +
      (offeredNames.length ? offeredNames.join(', ') : 'no tools'),
  };
}

/** A built-in tape tool as a call of the agent's own tool: its argument names, and hints for the rest. */
function nativeCall(
  tool: Exclude<NeutralTool, { mcp: unknown } | { raw: unknown }>,
  native: OfferedTool,
  cwd: string | undefined,
): MappedTool {
  const schema = native.schema;
  let unresolvedPath: string | undefined;
  const pathArg = (path: string): Record<string, unknown> => {
    const key = pickKey(schema, KEYS.path);
    const wantsAbsolute = /absolute/i.test(String(props(schema)[key]?.description ?? ''));
    let value = path;
    if (wantsAbsolute && !posix.isAbsolute(path)) {
      if (cwd) value = posix.resolve(cwd, path);
      else unresolvedPath = path;
    }
    return { [key]: value };
  };

  let args: Record<string, unknown>;
  let hints: Record<string, string> = {};
  if ('shell' in tool) {
    args = shellArgs(schema, tool.shell);
    hints = { description: `Run ${short(tool.shell)}`, justification: `Run ${short(tool.shell)}` };
  } else if ('write_file' in tool) {
    args = { ...pathArg(tool.write_file.path), [pickKey(schema, KEYS.content)]: tool.write_file.content };
    hints = { description: `Write ${tool.write_file.path}` };
  } else if ('read_file' in tool) {
    args = pathArg(tool.read_file.path);
    hints = { description: `Read ${tool.read_file.path}` };
  } else if ('edit_file' in tool) {
    const { path, old, new: replacement } = tool.edit_file;
    args = { ...pathArg(path), [pickKey(schema, KEYS.old)]: old, [pickKey(schema, KEYS.new)]: replacement };
    hints = { description: `Edit ${path}`, instruction: `Replace the given text in ${path}` };
  } else {
    const url = tool.fetch.url;
    const p = props(schema);
    // Gemini's web_fetch takes only a prompt, which must carry the URL.
    args = 'url' in p || !('prompt' in p) ? { url } : { prompt: `Fetch ${url} and return its content.` };
    hints = { prompt: 'Return the content of the page.', description: `Fetch ${url}` };
  }
  const result: MappedTool = { ok: true, name: native.name, args: fillRequired(schema, args, hints) };
  if (unresolvedPath) result.unresolvedPath = unresolvedPath;
  return result;
}
