/**
 * Small zod builders that attach AXIS's own error messages ("expected a positive integer, found -3") to
 * every node, so the issue translator (issues.ts) rarely has to guess. Messages produced here always start
 * with a lowercase letter; zod's defaults start with an uppercase one, which is how issues.ts tells them apart.
 */
import * as z from 'zod';
import { describeValue } from '../util/describe-value.js';

/**
 * How AXIS parses a file with its config schemas: issues keep their input (`reportInput`), and no
 * parser is compiled (`jitless`). Zod 4 compiles a fast path for each object schema (`new Function`)
 * at its first parse, which pays back only over many parses of one schema; a process parses the
 * config once and each scenario file once, and the compiling cost more than it saved at every size
 * measured (docs/performance.md, Start-up). Per parse rather than `z.config()`: a config module that
 * imports 'axis-eval' shares zod with schemas of its own.
 */
export const PARSE_FILE = { reportInput: true, jitless: true } as const;

/** Marks a message that carries the allowed keys of a strict object (decoded in issues.ts). */
export const UNKNOWN_KEYS_MARK = '\u0001unknown-keys:';

/** `{ error }` param: "expected <what>, found <value>", or "missing; expected <what>" for an absent key. */
export function expected(what: string) {
  return {
    error: (iss: { input?: unknown }) =>
      iss.input === undefined
        ? `missing; expected ${what}`
        : `expected ${what}, found ${describeValue(iss.input)}`,
  };
}

export const str = (what = 'a string') => z.string(expected(what));

/** A string with at least one non-space character. */
export const nonEmpty = (what = 'a non-empty string') => z.string(expected(what)).regex(/\S/, expected(what));

export const bool = () => z.boolean(expected('true or false'));

export const posInt = (what = 'a positive integer') => {
  const e = expected(what);
  return z.number(e).int(e).positive(e);
};

export const nonNegInt = (what = 'an integer ≥ 0') => {
  const e = expected(what);
  return z.number(e).int(e).min(0, e);
};

export const posNumber = (what = 'a positive number') => {
  const e = expected(what);
  return z.number(e).positive(e);
};

/**
 * Longest duration a config may set: one week, far below the 24.8 days where a Node timer overflows and
 * fires at once (src/util/timers.ts).
 */
export const MAX_DURATION_MINUTES = 7 * 24 * 60;
const MAX_DURATION_SECONDS = MAX_DURATION_MINUTES * 60;

const atMost = (max: number, what: string) => ({
  error: (iss: { input?: unknown }) =>
    `expected at most ${max} ${what} (7 days), found ${describeValue(iss.input)}`,
});

export const minutesField = () =>
  posNumber('a positive number of minutes').max(
    MAX_DURATION_MINUTES,
    atMost(MAX_DURATION_MINUTES, 'minutes'),
  );

export const secondsField = () =>
  posNumber('a positive number of seconds').max(
    MAX_DURATION_SECONDS,
    atMost(MAX_DURATION_SECONDS, 'seconds'),
  );

export const nonNegNumber = (what = 'a number ≥ 0') => {
  const e = expected(what);
  return z.number(e).min(0, e);
};

export const numberBetween = (min: number, max: number) => {
  const e = expected(`a number from ${min} to ${max}`);
  return z.number(e).min(min, e).max(max, e);
};

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  return z.enum(values, expected(`one of ${list}`));
}

export const strArray = (item = 'a string', itemSchema = str(item)) =>
  z.array(itemSchema, expected(`an array of ${item.replace(/^an? /, '')}s`));

export const strRecord = <T extends z.ZodType>(value: T, what = 'an object of name: value pairs') =>
  z.record(z.string(), value, expected(what));

/**
 * `{ error }` param for a union: its own message only when the value's type fits no branch; otherwise zod's
 * default, and issues.ts reports the errors of the branch that fits best.
 */
export function unionError(what: string, fits: (value: unknown) => boolean) {
  return {
    error: (iss: { input?: unknown }) =>
      fits(iss.input)
        ? undefined
        : iss.input === undefined
          ? `missing; expected ${what}`
          : `expected ${what}, found ${describeValue(iss.input)}`,
  };
}

/** One string, or an array of the items `list` holds: `what` names both forms in the error. */
export function stringOrArray<S extends z.ZodType, L extends z.ZodType>(one: S, list: L, what: string) {
  return z.union(
    [one, list],
    unionError(what, (v) => typeof v === 'string' || Array.isArray(v)),
  );
}

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A strict object whose unknown-key error lists the allowed keys, for "did you mean" suggestions. */
export function obj<T extends z.ZodRawShape>(shape: T, what = 'an object') {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (iss: { code?: string; input?: unknown }) => {
      if (iss.code === 'unrecognized_keys') return `${UNKNOWN_KEYS_MARK}${JSON.stringify(known)}`;
      return expected(what).error(iss);
    },
  });
}

const ENV_REF = /\$\{([^}]*)\}/g;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A string that may contain `${VAR}` references (resolved at run time); malformed references are errors. */
export const refString = (what = 'a string', pattern?: RegExp) =>
  (pattern ? z.string(expected(what)).regex(pattern, expected(what)) : z.string(expected(what))).superRefine(
    (value, ctx) => {
      const open = value.split('${').length - 1;
      const refs = [...value.matchAll(ENV_REF)];
      const bad = refs.find((m) => !ENV_NAME.test(m[1] ?? ''));
      if (bad) {
        ctx.addIssue({
          code: 'custom',
          message: `expected \${NAME} references to name an environment variable, found "${bad[0]}"`,
        });
      } else if (open !== refs.length) {
        ctx.addIssue({
          code: 'custom',
          message: `expected every "\${" to be closed by "}", found ${describeValue(value)}`,
        });
      }
    },
  );

/** Compiles a regex written as `pattern` or `/pattern/flags`. Throws on invalid syntax. */
export function compileRegex(source: string): RegExp {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(source);
  if (literal) return new RegExp(literal[1] ?? '', literal[2]);
  // `/done/I` means flags, not the text "/done/I"; a body with its own `/` is a path (`/usr/bin/env`).
  const flagged = /^\/((?:[^/\\]|\\.)+)\/([a-zA-Z]+)$/s.exec(source);
  const bad = flagged?.[2]?.split('').find((f) => !'dgimsuvy'.includes(f));
  if (bad)
    throw new SyntaxError(
      `unknown flag "${bad}": flags are d, g, i, m, s, u, v, y; to match the text ${source}, write ${source.replaceAll('/', '\\/')}`,
    );
  return new RegExp(source);
}

export const regexString = () =>
  z.string(expected('a regular expression string')).superRefine((value, ctx) => {
    try {
      compileRegex(value);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const why = message.replace(/^Invalid regular expression: (\/[\s\S]*\/[a-z]*: )?/, '');
      ctx.addIssue({
        code: 'custom',
        message: `expected a valid regular expression, found ${describeValue(value)} (${why})`,
      });
    }
  });
