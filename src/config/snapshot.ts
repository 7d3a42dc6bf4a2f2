/**
 * Turns what a config or scenario file produced into inert plain data before anything validates it: every
 * property is read once, here, so a throwing getter, a Proxy trap, a cycle or a 200k-deep nesting becomes
 * a problem naming its path instead of a crash (or a stack overflow) somewhere in the validator. Hand-written
 * because it must also bound depth and size, which structuredClone does not, and must keep `__proto__` as
 * an ordinary key so the validator reports it as unknown.
 */
import { formatPath } from './issues.js';

/** Deeper than any real config (the deepest field is about 8 levels down). */
export const MAX_DEPTH = 64;
/** Values (objects, arrays and leaves) in one file. */
export const MAX_VALUES = 1_000_000;

/** A problem at `path` (`settings.limits`; empty for the whole value). */
export class SnapshotError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

type Key = string | number;

/** Long paths (from deep nesting) are cut after a few segments. */
function shownPath(path: readonly Key[]): string {
  return path.length > 8 ? `${formatPath(path.slice(0, 8))}…` : formatPath(path);
}

function firstLine(err: unknown): string {
  let message: string;
  try {
    message = err instanceof Error ? err.message : String(err);
  } catch {
    message = 'an unprintable value';
  }
  return message.split('\n')[0] ?? message;
}

/** A plain copy of `value`; functions and other leaves are kept as they are (the schema rejects them). */
export function snapshot(value: unknown): unknown {
  const ancestors = new Map<object, readonly Key[]>();
  let count = 0;

  const guard = <T>(path: readonly Key[], read: () => T): T => {
    try {
      return read();
    } catch (err) {
      throw new SnapshotError(shownPath(path), `reading the value threw: ${firstLine(err)}`);
    }
  };

  const copy = (v: unknown, path: Key[]): unknown => {
    if (++count > MAX_VALUES)
      throw new SnapshotError('', `expected at most ${MAX_VALUES.toLocaleString('en')} values, found more`);
    if (typeof v !== 'object' || v === null) return v;
    const seen = ancestors.get(v);
    if (seen)
      throw new SnapshotError(
        shownPath(path),
        `expected plain data, found a reference back to ${seen.length ? shownPath(seen) : 'the top level'} (a cycle)`,
      );
    if (path.length >= MAX_DEPTH)
      throw new SnapshotError(shownPath(path), `nested deeper than ${MAX_DEPTH} levels`);
    ancestors.set(v, path);
    try {
      if (guard(path, () => Array.isArray(v))) {
        const length = guard(path, () => (v as unknown[]).length);
        const out: unknown[] = [];
        for (let i = 0; i < length; i++) {
          const item = guard([...path, i], () => (v as unknown[])[i]);
          out.push(copy(item, [...path, i]));
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const key of guard(path, () => Object.keys(v))) {
        const item = guard([...path, key], () => (v as Record<string, unknown>)[key]);
        // defineProperty, so a `__proto__` key stays a key (and is reported as unknown) instead of a prototype.
        Object.defineProperty(out, key, {
          value: copy(item, [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    } finally {
      ancestors.delete(v);
    }
  };

  return copy(value, []);
}
