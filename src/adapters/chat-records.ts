/**
 * Chat records of Gemini CLI (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) and Qwen Code
 * (`~/.qwen/projects/<project>/chats/<session>.jsonl`): their stream-json tool_result of a failed shell
 * command carries only the command's output, while the chat record keeps the text the model saw, with
 * its "Exit Code: N" line. Used to fill in exit codes.
 *
 * The records sit in the job's HOME, which the agent's shell can write: it may add a record (or append a
 * line) claiming "Exit Code: 0" for a call that failed. So records of one call never flatter: a non-zero
 * code in any of them wins, then a record without a code, and 0 only when every record says 0.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ParsedStream } from '../transcript/model.js';
import { isRecord, shellExitCode } from '../transcript/util.js';
import { readRegularFile } from '../util/input-file.js';

const SHELL_TOOLS = new Set(['run_shell_command', 'shell']);
/** A chat record larger than this is skipped (exit codes are a detail; memory is not). */
const MAX_CHAT_BYTES = 64 * 1024 * 1024;

/** Function-response texts by call id, from every line of a session file (JSONL or one JSON object). */
export function sessionToolOutputs(text: string, into = new Map<string, string>()): Map<string, string> {
  const visit = (v: unknown, depth: number): void => {
    if (depth > 12) return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    if (!isRecord(v)) return;
    const fr = v.functionResponse;
    if (isRecord(fr) && typeof fr.id === 'string' && isRecord(fr.response)) {
      const out = fr.response.output;
      if (typeof out === 'string') keepWorst(into, fr.id, out);
    }
    for (const value of Object.values(v))
      if (typeof value === 'object' && value !== null) visit(value, depth + 1);
  };
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      visit(JSON.parse(t) as unknown, 0);
    } catch {
      // A partial last line, or a pretty-printed file: try the whole text once below.
    }
  }
  if (into.size === 0 && text.trimStart().startsWith('{')) {
    try {
      visit(JSON.parse(text) as unknown, 0);
    } catch {
      // not JSON
    }
  }
  return into;
}

/** 2 for a non-zero exit code, 1 for none readable, 0 for exit code 0. */
function rank(text: string): number {
  const code = shellExitCode(text);
  return code === undefined ? 1 : code === 0 ? 0 : 2;
}

/** Keeps the record of `id` that says least for the call (the first of equals). */
function keepWorst(into: Map<string, string>, id: string, text: string): void {
  const had = into.get(id);
  if (had === undefined || rank(text) > rank(had)) into.set(id, text);
}

/** Reads every chat file under `<projectsDir>/<project>/chats/`. */
export async function readChatToolOutputs(projectsDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const project of await readdir(projectsDir).catch(() => [] as string[])) {
    const chats = join(projectsDir, project, 'chats');
    for (const name of await readdir(chats).catch(() => [] as string[])) {
      if (!/\.jsonl?$/.test(name)) continue;
      // The agent may have put a FIFO or a link to /dev/zero here: only regular files, bounded.
      const bytes = await readRegularFile(join(chats, name), MAX_CHAT_BYTES);
      if (bytes) sessionToolOutputs(bytes.toString('utf8'), out);
    }
  }
  return out;
}

/** Sets exitCode (and isError for non-zero) on shell results that lack one, from the session texts. */
export function applyShellExitCodes(parsed: ParsedStream, outputs: Map<string, string>): ParsedStream {
  if (outputs.size === 0) return parsed;
  const names = new Map<string, string>();
  for (const ev of parsed.events) if (ev.kind === 'tool_call') names.set(ev.id, ev.name);
  for (const ev of parsed.events) {
    if (ev.kind !== 'tool_result' || ev.exitCode !== undefined) continue;
    if (!SHELL_TOOLS.has(names.get(ev.callId) ?? '')) continue;
    const full = outputs.get(ev.callId);
    const code = full === undefined ? undefined : shellExitCode(full);
    if (code === undefined) continue;
    ev.exitCode = code;
    if (code !== 0) ev.isError = true;
  }
  return parsed;
}
