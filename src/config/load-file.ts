/**
 * Reads one config or scenario file: JSON through parseJson, everything else through jiti (TS without a
 * build step). A module's default export may be the value, a promise of it, or a (sync or async) function
 * returning it; the function is called exactly once per load. Only regular files under a size cap are
 * read, and the result is a plain-data snapshot (snapshot.ts), so nothing the file does can crash the
 * validator.
 */
import { extname } from 'node:path';
import { importUserModule, loadReason } from '../util/user-module.js';
import { checkInputFile, decodeUtf8, InputFileError, readInputBytes } from '../util/input-file.js';
import { findDuplicateKey, invalidJsonMessage, JsonSyntaxError, parseJson } from '../util/json.js';
import { snapshot, SnapshotError } from './snapshot.js';

/** A file that could not be read or evaluated; `message` (at `path` inside the file) is ready for a ValidationIssue. */
export class FileLoadError extends Error {
  constructor(
    message: string,
    readonly path = '',
  ) {
    super(message);
  }
}

export const MODULE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'] as const;

export async function loadFile(path: string): Promise<unknown> {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return plainData(loadJson(path));
  if (!(MODULE_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new FileLoadError(
      `unsupported file extension "${ext}"; expected .json, ${MODULE_EXTENSIONS.join(', ')}`,
    );
  }
  try {
    checkInputFile(path);
  } catch (err) {
    if (err instanceof InputFileError) throw new FileLoadError(err.message);
    throw err;
  }
  let mod: unknown;
  try {
    mod = await importUserModule(path);
  } catch (err) {
    throw new FileLoadError(`could not load the module: ${loadReason(messageOf(err))}`);
  }
  return plainData(await exported(mod, ext));
}

/** The module's value: its default export, awaited, and called when it is a function. */
async function exported(mod: unknown, ext: string): Promise<unknown> {
  let value: unknown;
  try {
    const exports = (mod ?? {}) as Record<string, unknown>;
    // CommonJS (`module.exports =`, TypeScript's `export =`) has no default export: the module is the value.
    value = 'default' in exports ? exports.default : ext === '.cjs' || ext === '.cts' ? mod : undefined;
  } catch (err) {
    throw new FileLoadError(`reading the module's exports threw: ${firstLine(err)}`);
  }
  if (value === undefined) {
    throw new FileLoadError('expected a default export (an object, or a function returning one)');
  }
  if (typeof value === 'function') {
    try {
      return await (value as () => unknown)();
    } catch (err) {
      throw new FileLoadError(`the default-exported function threw: ${firstLine(err)}`);
    }
  }
  let thenable: boolean;
  try {
    thenable = typeof (value as { then?: unknown } | null)?.then === 'function';
  } catch (err) {
    throw new FileLoadError(`reading the value threw: ${firstLine(err)}`);
  }
  if (!thenable) return value;
  try {
    return await value;
  } catch (err) {
    throw new FileLoadError(`the default export is a promise that rejected: ${firstLine(err)}`);
  }
}

function plainData(value: unknown): unknown {
  try {
    return snapshot(value);
  } catch (err) {
    if (err instanceof SnapshotError) throw new FileLoadError(err.message, err.path);
    throw err;
  }
}

function loadJson(path: string): unknown {
  let text: string;
  try {
    text = decodeUtf8(readInputBytes(path));
  } catch (err) {
    if (err instanceof InputFileError) throw new FileLoadError(err.message);
    throw err;
  }
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new FileLoadError(invalidJsonMessage(err));
    throw err;
  }
  const dup = findDuplicateKey(text);
  if (dup) {
    throw new FileLoadError(
      `duplicate key ${JSON.stringify(dup.key)} at line ${dup.line}, column ${dup.column}: JSON keeps only the last one; remove one`,
    );
  }
  return data;
}

function firstLine(err: unknown): string {
  const message = messageOf(err);
  return message.split('\n')[0] ?? message;
}

function messageOf(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'a value that cannot be shown';
  }
}
