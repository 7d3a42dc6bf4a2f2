/**
 * Reads one config or scenario file: JSON through parseJson, everything else through jiti (TS without a
 * build step). A module's default export may be the value or a (sync or async) function returning it;
 * the function is called exactly once per load.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createJiti, type Jiti } from 'jiti';
import { JsonSyntaxError, parseJson } from './json.js';

/** A file that could not be read or evaluated; `message` is ready for a ValidationIssue. */
export class FileLoadError extends Error {}

export const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.cjs'] as const;

let jiti: Jiti | undefined;

/** `import … from 'axis-eval'` inside configs resolves to this running copy of AXIS, installed or not. */
function selfEntry(): string {
  const js = fileURLToPath(new URL('../index.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('../index.ts', import.meta.url));
}

function loader(): Jiti {
  jiti ??= createJiti(import.meta.url, {
    moduleCache: false,
    interopDefault: false,
    alias: { 'axis-eval': selfEntry() },
  });
  return jiti;
}

export async function loadFile(path: string): Promise<unknown> {
  const ext = extname(path).toLowerCase();
  if (ext === '.json') return loadJson(path);
  if (!(MODULE_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new FileLoadError(
      `unsupported file extension "${ext}"; expected .json, ${MODULE_EXTENSIONS.join(', ')}`,
    );
  }
  let mod: unknown;
  try {
    mod = await loader().import(path);
  } catch (err) {
    throw new FileLoadError(`could not load the module: ${firstLine(err)}`);
  }
  const exports = (mod ?? {}) as Record<string, unknown>;
  let value: unknown = 'default' in exports ? exports.default : ext === '.cjs' ? mod : undefined;
  if (value === undefined) {
    throw new FileLoadError('expected a default export (an object, or a function returning one)');
  }
  if (typeof value === 'function') {
    try {
      value = await (value as () => unknown)();
    } catch (err) {
      throw new FileLoadError(`the default-exported function threw: ${firstLine(err)}`);
    }
  }
  return value;
}

function loadJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new FileLoadError(`could not read the file: ${firstLine(err)}`);
  }
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) {
      throw new FileLoadError(`invalid JSON at line ${err.line}, column ${err.column}: ${err.reason}`);
    }
    throw err;
  }
}

function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0] ?? message;
}
