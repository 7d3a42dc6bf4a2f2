/**
 * Reading the report store as untrusted data: anyone can edit a report folder, so a path read from a report
 * (report.json's `files`, a detail file's `artifactsDir`, an artifact's `path`) is confined to its report
 * folder — no `..`, no absolute path, no symlink leading out — and a store file is read only when it is a
 * regular file under a size cap. Problems are AxisErrors (exit 2) naming the file and the field.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { describeValue } from '../util/describe-value.js';
import { AxisError } from '../util/errors.js';
import { InputFileError, readInputBytes, readInputFile } from '../util/input-file.js';
import { jsonErrorAt, parseJson } from '../util/json.js';

/** report.json and per-run files: far above what a capped run writes, far below what could hurt. */
export const MAX_STORE_FILE_BYTES = 256 * 1024 * 1024;

/** A report (or one of its files) that is not what AXIS wrote. */
export class StoreDataError extends AxisError {
  constructor(message: string) {
    super(message, { exitCode: 2 });
    this.name = 'StoreDataError';
  }
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest (for files not written yet). */
function realpathOfNearest(path: string): string {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return path;
      rest.push(at.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      at = parent;
    }
  }
}

/**
 * The absolute path of `rel`, a path a report records relative to `reportDir`, after checking it stays
 * inside: lexically (forward-slash relative, no `..`, not absolute) and for real (no symlink, of the file
 * or of a folder on the way, leads out). `where` names the field: `report.json: results[0].runs[0].files.detail`.
 */
export function confinedPath(reportDir: string, rel: unknown, where: string): string {
  if (typeof rel !== 'string' || rel.trim() === '')
    throw new StoreDataError(
      `${where}: expected a path relative to the report folder, found ${describeValue(rel)}`,
    );
  const parts = rel.split(/[\\/]/);
  if (rel.startsWith('/') || /^[a-zA-Z]:/.test(rel) || rel.includes('\0') || parts.includes('..'))
    throw new StoreDataError(
      `${where}: expected a path inside the report folder, found ${JSON.stringify(rel)}`,
    );
  const abs = join(reportDir, ...parts);
  if (!inside(realpathOfNearest(abs), realpathOfNearest(reportDir)))
    throw new StoreDataError(
      `${where}: ${JSON.stringify(rel)} leads out of the report folder (through a symlink)`,
    );
  return abs;
}

/** Parsed JSON of a store file; StoreDataError (naming `shown`) when it is unreadable, special, too big or not JSON. */
export function readStoreJson(abs: string, shown: string): unknown {
  let text: string;
  try {
    text = readInputFile(abs, MAX_STORE_FILE_BYTES);
  } catch (err) {
    if (err instanceof InputFileError)
      throw new StoreDataError(
        err.code === 'ENOENT' ? `Cannot read ${shown}: ENOENT` : `${shown}: ${err.message}`,
      );
    throw err;
  }
  try {
    return parseJson(text);
  } catch (err) {
    throw new StoreDataError(`${shown}: invalid JSON (${jsonErrorAt(err)})`);
  }
}

/** Text of a store file, or null when it is missing or unusable (optional files such as the sparse index). */
export function readStoreText(abs: string): string | null {
  return readStoreBytes(abs)?.toString('utf8') ?? null;
}

/** Bytes of a store file (a captured artifact), or null when it is missing, not a regular file or too big. */
export function readStoreBytes(abs: string): Buffer | null {
  try {
    return readInputBytes(abs, MAX_STORE_FILE_BYTES);
  } catch {
    return null;
  }
}
