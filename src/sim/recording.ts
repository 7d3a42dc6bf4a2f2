/**
 * Recorded tapes: what `axis sim record` writes and `axis sim replay` serves. A recording is a list of
 * model turns in neutral terms (plus what the agent offered and sent back for each), and the side calls
 * kept apart. Loading reports every problem with the file and the JSON path, like tapes.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import * as z from 'zod';
import { invalidJsonMessage, parseJson } from '../util/json.js';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { InputFileError, readInputFile } from '../util/input-file.js';
import { MAX_TAPE_BYTES, parseTape, type NeutralTool } from './tape.js';
import type { ProviderId, Usage } from './types.js';

export const RECORDING_FORMAT = 'axis-sim-recording';

/** A tool result as the agent sent it to the model after a recorded turn. */
export interface RecordedResult {
  output: string;
  is_error: boolean;
}

export interface RecordedTurn {
  text?: string;
  thinking?: string;
  tools?: NeutralTool[];
  /** Names of the tools the agent offered in the request this turn answered. */
  offered?: string[];
  /** The tool results the agent sent back for this turn's calls, in call order. */
  results?: RecordedResult[];
  usage?: Usage;
}

/** A request that was not an agent turn (no tools offered, or structured output asked for). */
export interface RecordedSide {
  kind: 'no_tools' | 'json_schema';
  /** The newest user text of the request (at most 300 characters): matched first when replaying. */
  prompt: string;
  text?: string;
  thinking?: string;
  tools?: NeutralTool[];
  usage?: Usage;
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: 1;
  name?: string;
  upstream?: string;
  recorded_at?: string;
  /** False while recording is in progress (or when it crashed); true once stopped cleanly. */
  complete: boolean;
  provider?: ProviderId;
  model?: string;
  /** The agent's working directory while recording; tool calls are rebased onto the replaying agent's. */
  cwd?: string;
  turns: RecordedTurn[];
  side: RecordedSide[];
}

export function emptyRecording(fields: Partial<Recording> = {}): Recording {
  return { format: RECORDING_FORMAT, version: 1, complete: false, ...fields, turns: [], side: [] };
}

const usageSchema = z.strictObject({ input: z.int().min(0), output: z.int().min(0) });
const reply = {
  text: z.string().optional(),
  thinking: z.string().optional(),
  // Neutral tools are validated by the tape parser, which names the same paths.
  tools: z.array(z.unknown()).optional(),
  usage: usageSchema.optional(),
};
const recordingSchema = z.strictObject({
  $schema: z.string().optional(),
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(1),
  name: z.string().optional(),
  upstream: z.string().optional(),
  recorded_at: z.string().optional(),
  complete: z.boolean().default(true),
  provider: z.enum(['anthropic', 'openai-responses', 'openai-chat', 'gemini']).optional(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  turns: z.array(
    z.strictObject({
      ...reply,
      offered: z.array(z.string()).optional(),
      results: z.array(z.strictObject({ output: z.string(), is_error: z.boolean() })).optional(),
    }),
  ),
  side: z
    .array(z.strictObject({ ...reply, kind: z.enum(['no_tools', 'json_schema']), prompt: z.string() }))
    .default([]),
});

function pathString(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** Validates recording data; `file` names the source in error messages. Throws ConfigError (exit 2). */
export function parseRecording(data: unknown, file = '<recording>'): Recording {
  const obj = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  if (obj.format !== RECORDING_FORMAT) {
    const hint = Array.isArray(obj.turns) ? ' (a hand-written tape? serve it with `axis sim serve`)' : '';
    throw new ConfigError([
      {
        file,
        path: 'format',
        message: `expected "${RECORDING_FORMAT}", found ${JSON.stringify(obj.format ?? null)}${hint}`,
      },
    ]);
  }
  const parsed = recordingSchema.safeParse(data);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({
        file,
        path: pathString(i.path),
        message: i.message.replace(/^Invalid input: /, '').replace(/, received /, ', found '),
      })),
    );
  }
  const rec = parsed.data as Recording & { $schema?: string };
  delete rec.$schema;
  // Tool shapes: the tape parser checks them and reports `turns[i].tools[j]…` / `side[i].tools[j]…`.
  const issues: ValidationIssue[] = [];
  for (const [key, list] of [
    ['turns', rec.turns],
    ['side', rec.side],
  ] as const) {
    try {
      parseTape({ turns: list.map((t) => ({ text: '', ...(t.tools ? { tools: t.tools } : {}) })) }, file);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      issues.push(...err.issues.map((i) => ({ ...i, path: i.path.replace(/^turns/, key) })));
    }
  }
  if (issues.length) throw new ConfigError(issues);
  return rec;
}

export async function loadRecording(file: string): Promise<Recording> {
  let text: string;
  try {
    // Only a regular file under the cap, never blocking: a FIFO or /dev/zero is refused before any read.
    text = readInputFile(resolve(file), MAX_TAPE_BYTES);
  } catch (err) {
    const code = err instanceof InputFileError ? (err.code ?? err.message) : (err as Error).message;
    throw new ConfigError([{ file, path: '', message: `cannot read recording: ${code}` }]);
  }
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (err) {
    throw new ConfigError([{ file, path: '', message: invalidJsonMessage(err) }]);
  }
  return parseRecording(data, file);
}

const pick = <T extends object>(o: T, keys: (keyof T)[]): Partial<T> =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Partial<T>;

/** The recording as JSON text, keys in a fixed, readable order. */
export function serializeRecording(rec: Recording): string {
  const ordered = {
    ...pick(rec, [
      'format',
      'version',
      'name',
      'upstream',
      'recorded_at',
      'complete',
      'provider',
      'model',
      'cwd',
    ]),
    turns: rec.turns.map((t) => pick(t, ['text', 'thinking', 'tools', 'results', 'usage', 'offered'])),
    side: rec.side.map((s) => pick(s, ['kind', 'prompt', 'text', 'thinking', 'tools', 'usage'])),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Replaces every secret (and its JSON-escaped form) with `<redacted>`. Secrets shorter than 8 characters are ignored. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 8) continue;
    out = out.split(s).join('<redacted>');
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s) out = out.split(escaped).join('<redacted>');
  }
  return out;
}

/** Writes beside the target, then renames over it: readers never see a half-written tape. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const abs = resolve(file);
  await mkdir(dirname(abs), { recursive: true });
  const tmp = `${abs}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, abs);
}
