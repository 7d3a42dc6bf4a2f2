/**
 * Tapes: the model's side of a conversation in neutral terms. Loaded from .json or .ts/.js (via jiti);
 * every problem is reported with the file and the JSON path inside it.
 */
import { InputFileError, readInputFile } from '../util/input-file.js';
import { extname, resolve } from 'node:path';
import * as z from 'zod';
import { invalidJsonMessage, parseJson } from '../util/json.js';
import { nestedDeeperThan } from '../util/depth.js';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { importUserModule, loadReason } from '../util/user-module.js';
import { shownPath } from '../util/shown-path.js';

export type NeutralTool =
  | { shell: string }
  | { write_file: { path: string; content: string } }
  | { read_file: { path: string } }
  | { edit_file: { path: string; old: string; new: string } }
  | { fetch: { url: string } }
  | { mcp: { server: string; tool: string; args?: Record<string, unknown> } }
  | { raw: { name: string; args?: Record<string, unknown> } };

export type NeutralToolKind = 'shell' | 'write_file' | 'read_file' | 'edit_file' | 'fetch' | 'mcp' | 'raw';

export type Fault =
  | { status: number; times?: number; body?: unknown }
  | { drop: 'mid-stream'; times?: number }
  | { malformed: true; times?: number };

export interface NextCondition {
  result_contains?: string;
  result_matches?: string;
  exit_nonzero?: boolean;
  is_error?: boolean;
}

export interface NextRule {
  if?: NextCondition;
  goto: string | number;
}

export interface TapeTurn {
  id?: string;
  text?: string;
  thinking?: string;
  tools?: NeutralTool[];
  next?: NextRule[];
  fault?: Fault;
  delay_ms?: number;
}

export interface JudgeEntry {
  /** Substring of the prompt, or `/regex/flags`. Absent: matches every judge request. */
  match?: string;
  answer?: unknown;
  fault?: Fault;
  /** How many requests this entry answers before later entries are tried. */
  times?: number;
}

export interface Tape {
  name?: string;
  turns: TapeTurn[];
  judge?: JudgeEntry[];
}

/** Identity helper for tapes written in TypeScript: `export default defineTape({...})`. */
export function defineTape(tape: Tape): Tape {
  return tape;
}

const argsSchema = z.record(z.string(), z.unknown());
const toolShapes: Record<NeutralToolKind, z.ZodType> = {
  shell: z.string().min(1),
  write_file: z.strictObject({ path: z.string().min(1), content: z.string() }),
  read_file: z.strictObject({ path: z.string().min(1) }),
  edit_file: z.strictObject({ path: z.string().min(1), old: z.string().min(1), new: z.string() }),
  fetch: z.strictObject({ url: z.string().min(1) }),
  mcp: z.strictObject({ server: z.string().min(1), tool: z.string().min(1), args: argsSchema.optional() }),
  raw: z.strictObject({ name: z.string().min(1), args: argsSchema.optional() }),
};
export const NEUTRAL_TOOL_KINDS = Object.keys(toolShapes) as NeutralToolKind[];

const toolSchema = z.unknown().superRefine((value, ctx) => {
  const expected = `expected an object with exactly one of ${NEUTRAL_TOOL_KINDS.join(', ')}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: `${expected}, found ${describe(value)}` });
    return;
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    ctx.addIssue({ code: 'custom', message: `${expected}, found keys ${JSON.stringify(keys)}` });
    return;
  }
  const key = keys[0] as string;
  const shape = toolShapes[key as NeutralToolKind];
  if (!shape) {
    ctx.addIssue({ code: 'custom', message: `${expected}, found unknown tool "${key}"` });
    return;
  }
  const parsed = shape.safeParse((value as Record<string, unknown>)[key], { jitless: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
    }
  }
});

const times = z.int().min(1).optional();
/** A value shown in a message: its JSON, cut to 60 characters. */
function shown(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
const faultSchema = z.union(
  [
    z.strictObject({ status: z.int().min(400).max(599), times, body: z.unknown().optional() }),
    z.strictObject({ drop: z.literal('mid-stream'), times }),
    z.strictObject({ malformed: z.literal(true), times }),
  ],
  {
    // Without it a value matching none of the three is only "Invalid input".
    error: (iss) =>
      'expected a fault: {"status": 400-599}, {"drop": "mid-stream"} or {"malformed": true}, each with an ' +
      `optional "times" (an integer ≥ 1), found ${shown(iss.input)}`,
  },
);

const conditionSchema = z
  .strictObject({
    result_contains: z.string().min(1).optional(),
    result_matches: z.string().min(1).optional(),
    exit_nonzero: z.boolean().optional(),
    is_error: z.boolean().optional(),
  })
  .refine((c) => Object.keys(c).length > 0, {
    message: 'expected at least one of result_contains, result_matches, exit_nonzero, is_error',
  });

// One message for every wrong value: a union says only "Invalid input" for 1.5, "Too small" for -1.
const gotoSchema = z.custom<string | number>(
  (v) => typeof v === 'string' || (Number.isInteger(v) && (v as number) >= 0),
  { error: (iss) => `expected a turn id or a turn index (an integer ≥ 0), found ${shown(iss.input)}` },
);

const turnSchema = z.strictObject({
  id: z.string().min(1).optional(),
  text: z.string().optional(),
  thinking: z.string().optional(),
  tools: z.array(toolSchema).optional(),
  next: z.array(z.strictObject({ if: conditionSchema.optional(), goto: gotoSchema })).optional(),
  fault: faultSchema.optional(),
  delay_ms: z.int().min(0).optional(),
});

const judgeSchema = z.strictObject({
  match: z.string().min(1).optional(),
  answer: z.unknown().optional(),
  fault: faultSchema.optional(),
  times,
});

const tapeSchema = z.strictObject({
  $schema: z.string().optional(),
  name: z.string().optional(),
  turns: z.array(turnSchema).default([]),
  judge: z.array(judgeSchema).optional(),
});

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

function pathString(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/** `/re/flags` → RegExp; anything else → null (a plain substring). Throws on a bad regex. */
export function parseMatcher(s: string): RegExp | null {
  const m = /^\/(.+)\/([a-z]*)$/s.exec(s);
  return m ? new RegExp(m[1] as string, m[2]) : null;
}

/**
 * Deepest nesting of objects and arrays in a tape (the tape itself is level 1): far above a real one, and
 * the simulator serves it without overflowing its stack.
 */
export const MAX_TAPE_DEPTH = 256;

/** The path (its first 8 keys) to a value nested deeper than `max` levels in `data`, if there is one. */
function tooDeep(data: unknown, max: number): string | undefined {
  type Node = { v: unknown; depth: number; key?: PropertyKey; up?: Node };
  const stack: Node[] = [{ v: data, depth: 1 }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.v !== 'object' || node.v === null) continue;
    if (node.depth > max) {
      const keys: PropertyKey[] = [];
      for (let n: Node | undefined = node; n?.key !== undefined; n = n.up) keys.unshift(n.key);
      return `${pathString(keys.slice(0, 8))}…`;
    }
    for (const [k, child] of Object.entries(node.v)) {
      const key = Array.isArray(node.v) ? Number(k) : k;
      stack.push({ v: child, depth: node.depth + 1, key, up: node });
    }
  }
  return undefined;
}

/** Validates tape data; `file` names the source in error messages. Throws ConfigError (exit 2). */
export function parseTape(data: unknown, file = '<tape>'): Tape {
  // The cheap walk first: the one that names the path keeps a node per value (30 ms for a long run's tape).
  const deep = nestedDeeperThan(data, MAX_TAPE_DEPTH) ? tooDeep(data, MAX_TAPE_DEPTH) : undefined;
  if (deep)
    throw new ConfigError([{ file, path: deep, message: `nested deeper than ${MAX_TAPE_DEPTH} levels` }]);
  if (data && typeof data === 'object' && (data as { format?: unknown }).format === 'axis-sim-recording') {
    throw new ConfigError([
      {
        file,
        path: 'format',
        message:
          'this is a recording made by `axis sim record`, not a scripted tape: serve it with `axis sim replay --tape <file>`',
      },
    ]);
  }
  // Parsed once per run: compiling zod's fast path (`new Function` per object schema) cost more than it
  // saved, even for a long run's tape of 70 judge answers (about 15 → 10 ms, cold).
  const parsed = tapeSchema.safeParse(data, { jitless: true });
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => ({
        file,
        path: pathString(i.path),
        message: i.message.replace(/^Invalid input: /, '').replace(/, received /, ', found '),
      })),
    );
  }
  const tape = parsed.data as Tape & { $schema?: string };
  delete tape.$schema;
  const issues = checkTape(tape, file);
  if (issues.length) throw new ConfigError(issues);
  return tape;
}

/** Cross-field rules zod cannot express: ids, goto targets, regexes, turns with nothing to say. */
function checkTape(tape: Tape, file: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const ids = turnIds(tape.turns, file, issues);
  tape.turns.forEach((t, i) => {
    if (t.text === undefined && t.thinking === undefined && !t.tools?.length && !t.fault) {
      issues.push({
        file,
        path: `turns[${i}]`,
        message: 'expected at least one of text, thinking, tools or fault',
      });
    }
    t.next?.forEach((rule, r) =>
      checkNextRule(rule, `turns[${i}].next[${r}]`, tape.turns.length, ids, file, issues),
    );
  });
  tape.judge?.forEach((j, i) => checkJudgeEntry(j, `judge[${i}]`, file, issues));
  return issues;
}

/** Turn id → index of the turn that has it first; a repeated id is an issue. */
function turnIds(turns: readonly TapeTurn[], file: string, issues: ValidationIssue[]): Map<string, number> {
  const ids = new Map<string, number>();
  turns.forEach((t, i) => {
    if (t.id === undefined) return;
    if (ids.has(t.id))
      issues.push({
        file,
        path: `turns[${i}].id`,
        message: `duplicate id "${t.id}" (also turns[${ids.get(t.id)}])`,
      });
    else ids.set(t.id, i);
  });
  return ids;
}

function checkNextRule(
  rule: NextRule,
  where: string,
  turnCount: number,
  ids: ReadonlyMap<string, number>,
  file: string,
  issues: ValidationIssue[],
): void {
  if (typeof rule.goto === 'number' && rule.goto >= turnCount) {
    issues.push({
      file,
      path: `${where}.goto`,
      message: `expected a turn index below ${turnCount}, found ${rule.goto}`,
    });
  }
  if (typeof rule.goto === 'string' && !ids.has(rule.goto)) {
    const known = [...ids.keys()].map((k) => `"${k}"`).join(', ') || 'none';
    issues.push({
      file,
      path: `${where}.goto`,
      message: `expected a turn id (known: ${known}), found "${rule.goto}"`,
    });
  }
  if (rule.if?.result_matches !== undefined) {
    try {
      new RegExp(rule.if.result_matches);
    } catch (err) {
      issues.push({
        file,
        path: `${where}.if.result_matches`,
        message: `invalid regular expression: ${(err as Error).message}`,
      });
    }
  }
}

function checkJudgeEntry(j: JudgeEntry, where: string, file: string, issues: ValidationIssue[]): void {
  if (j.match !== undefined) {
    try {
      parseMatcher(j.match);
    } catch (err) {
      issues.push({
        file,
        path: `${where}.match`,
        message: `invalid regular expression: ${(err as Error).message}`,
      });
    }
  }
  const faultForever = j.fault !== undefined && j.fault.times === undefined;
  if (j.answer === undefined && !faultForever) {
    issues.push({
      file,
      path: `${where}.answer`,
      message: 'expected an answer (only a fault without `times` may omit it)',
    });
  }
}

/** Recorded tapes hold whole conversations; far above a real one, far below what could hurt. */
export const MAX_TAPE_BYTES = 64 * 1024 * 1024;

/** Loads a tape from .json, or .ts/.mts/.js/.mjs (default export, or a `tape` export). */
export async function loadTape(path: string): Promise<Tape> {
  const abs = resolve(path);
  // Problems name the tape as the config's other problems name their files: relative to the cwd.
  const file = shownPath(abs);
  const ext = extname(abs).toLowerCase();
  let data: unknown;
  let text: string;
  try {
    // Only a regular file under the cap, never blocking: a tape symlinked to /dev/zero or a FIFO is refused.
    text = readInputFile(abs, MAX_TAPE_BYTES);
  } catch (err) {
    throw new ConfigError([
      {
        file,
        path: '',
        message: `cannot read tape: ${err instanceof InputFileError ? (err.code ?? err.message) : (err as Error).message}`,
      },
    ]);
  }
  if (ext === '.json') {
    try {
      data = parseJson(text);
    } catch (err) {
      throw new ConfigError([{ file, path: '', message: invalidJsonMessage(err) }]);
    }
  } else if (['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].includes(ext)) {
    try {
      const mod = (await importUserModule(abs)) as Record<string, unknown>;
      data = mod.default ?? mod.tape;
    } catch (err) {
      throw new ConfigError([
        { file, path: '', message: `cannot load tape: ${loadReason((err as Error).message)}` },
      ]);
    }
    if (data === undefined) {
      throw new ConfigError([
        { file, path: '', message: 'expected a default export (or a `tape` export) holding the tape' },
      ]);
    }
  } else {
    throw new ConfigError([
      { file, path: '', message: `expected a .json, .ts or .js tape, found "${ext || 'no extension'}"` },
    ]);
  }
  return parseTape(data, file);
}
