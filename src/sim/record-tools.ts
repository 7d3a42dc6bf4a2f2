/**
 * Maps a recorded tool call back to a neutral tool. A call becomes a neutral tool only when translating
 * that neutral tool for the same agent (`mapTool`, with the same offered tools and working directory)
 * gives exactly the recorded call again; anything else (extra arguments, a model-written description,
 * an unknown tool) stays `raw`, so replay never changes what the agent runs.
 */
import type { NeutralTool } from './tape.js';
import { mapTool } from './tools.js';
import type { NeutralToolCall, OfferedTool } from './types.js';

const KEYS = {
  path: ['file_path', 'filePath', 'absolute_path', 'path'],
  command: ['command', 'cmd'],
  content: ['content', 'contents'],
  old: ['old_string', 'oldString', 'old_str', 'old'],
  new: ['new_string', 'newString', 'new_str', 'new'],
};

/** Key-order-independent JSON text. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

function stringArg(args: Record<string, unknown>, keys: string[]): string | undefined {
  for (const k of keys) if (typeof args[k] === 'string') return args[k] as string;
  return undefined;
}

/** Neutral tools that could have produced this call; each is verified by mapping it back. */
function candidates(call: NeutralToolCall, cwd: string | undefined): NeutralTool[] {
  const a = call.args;
  const out: NeutralTool[] = [];
  let command = stringArg(a, KEYS.command);
  const arr = a.command ?? a.cmd;
  if (command === undefined && Array.isArray(arr) && arr.length === 3 && typeof arr[2] === 'string')
    command = arr[2];
  if (command) out.push({ shell: command });

  const path = stringArg(a, KEYS.path);
  if (path) {
    const paths = [path];
    if (cwd && path.startsWith(`${cwd.replace(/\/+$/, '')}/`)) paths.unshift(path.slice(cwd.length + 1));
    const content = stringArg(a, KEYS.content);
    const old = stringArg(a, KEYS.old);
    const replacement = stringArg(a, KEYS.new);
    for (const p of paths) {
      if (content !== undefined) out.push({ write_file: { path: p, content } });
      if (old && replacement !== undefined) out.push({ edit_file: { path: p, old, new: replacement } });
      out.push({ read_file: { path: p } });
    }
  }
  const fetchPrompt = typeof a.prompt === 'string' && /^Fetch (\S+) and return its content\.$/.exec(a.prompt);
  const url = typeof a.url === 'string' ? a.url : fetchPrompt ? fetchPrompt[1] : undefined;
  if (url) out.push({ fetch: { url } });

  const mcp = /^mcp__(.+?)__(.+)$/.exec(call.name);
  if (mcp) {
    const [, server, tool] = mcp as unknown as [string, string, string];
    out.push({ mcp: Object.keys(a).length ? { server, tool, args: a } : { server, tool } });
  }
  return out;
}

export function toNeutralTool(call: NeutralToolCall, offered: OfferedTool[], cwd?: string): NeutralTool {
  const want = stableJson(call.args);
  for (const candidate of candidates(call, cwd)) {
    const mapped = mapTool(candidate, offered, cwd);
    if (mapped.ok && mapped.name === call.name && stableJson(mapped.args) === want) return candidate;
  }
  const name = call.name || 'unnamed_tool';
  return { raw: Object.keys(call.args).length ? { name, args: call.args } : { name } };
}
