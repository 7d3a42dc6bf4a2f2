/**
 * Baseline files on disk: `<configDir>/.axis/baselines/<name>.json`, meant to be committed. Reads and
 * writes only; the model is baseline.ts.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DirLockTimeout, withDirLock } from '../config/dir-lock.js';
import { MAX_STORE_FILE_BYTES } from '../report/confine.js';
import { AXIS_DIR } from '../report/locate.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { AxisError } from '../util/errors.js';
import { InputFileError, readInputFile } from '../util/input-file.js';
import { writeErrorText } from '../util/write-error.js';
import { parseBaseline, serializeBaseline, validateBaselineName, type Baseline } from './baseline.js';
import { shownPath } from '../util/shown-path.js';

export function baselinesDir(configDir: string): string {
  return join(configDir, AXIS_DIR, 'baselines');
}

export function baselinePath(configDir: string, name: string): string {
  return join(baselinesDir(configDir), `${validateBaselineName(name)}.json`);
}

const shown = (path: string) => shownPath(path);

/** The baseline, or undefined when there is no such file. A broken file throws (exit 2). */
export async function readBaseline(configDir: string, name: string): Promise<Baseline | undefined> {
  const path = baselinePath(configDir, name);
  let text: string;
  try {
    // A committed file anyone may have replaced: only a regular file under the cap, opened without blocking.
    text = readInputFile(path, MAX_STORE_FILE_BYTES);
  } catch (err) {
    if ((err as InputFileError).code === 'ENOENT') return undefined;
    const problem = err instanceof InputFileError ? err.message : `could not read it: ${String(err)}`;
    throw new AxisError(`${shown(path)}: ${problem}`, { exitCode: 2 });
  }
  // The file's name is the baseline's: a copied main.json read as v1.0 is v1.0 in every output.
  return { ...parseBaseline(text, shown(path)), name };
}

/** Like readBaseline, but a missing baseline is an error naming the ones that exist. */
export async function requireBaseline(configDir: string, name: string): Promise<Baseline> {
  const b = await readBaseline(configDir, name);
  if (b) return b;
  // Only a hint: a folder that cannot be listed leaves it out rather than hide the error above.
  const names = (await listBaselines(configDir).catch(() => [])).map((x) => x.name);
  throw new AxisError(
    `Baseline "${name}" not found in ${shown(baselinesDir(configDir))}.` +
      (names.length ? ` Baselines: ${names.join(', ')}` : ' Create one with `axis baseline set`.'),
    { exitCode: 2 },
  );
}

/**
 * Runs `fn` (read, merge, write) holding `<name>.json.lock`: two `axis baseline set` at once would
 * otherwise each merge into the file as it was and the second write drop the first's pairs.
 */
export async function withBaselineLock<T>(configDir: string, name: string, fn: () => Promise<T>): Promise<T> {
  const path = baselinePath(configDir, name);
  try {
    return await withDirLock(path, `Baseline "${name}"`, fn, {
      timeoutMs: 60_000,
      holderHint: 'another axis baseline set',
      onWait: (message) => process.stderr.write(`note: ${message}\n`),
    });
  } catch (err) {
    if (err instanceof AxisError) throw err;
    if (err instanceof DirLockTimeout) throw new AxisError(err.message);
    // The lock file could not be made (a read-only or full disk): the write would fail the same way.
    throw new AxisError(`Cannot write ${shown(path)}: ${(err as Error).message}`);
  }
}

/** Writes the file (pretty JSON, newline); a failed write is an error. Returns the path. */
export async function writeBaseline(configDir: string, b: Baseline): Promise<string> {
  const path = baselinePath(configDir, b.name);
  try {
    await writeFileAtomic(path, serializeBaseline(b));
  } catch (err) {
    throw new AxisError(`Cannot write ${shown(path)}: ${(err as Error).message}`);
  }
  return path;
}

export interface BaselineListEntry {
  name: string;
  updatedAt: string;
  scenarios: number;
  agents: number;
  pairs: number;
  /** Set when the file cannot be read. */
  error?: string;
}

/** Every baseline, newest `updatedAt` first; unreadable files are listed with their error. */
export async function listBaselines(configDir: string): Promise<BaselineListEntry[]> {
  const files = (await baselineFiles(configDir)).filter((f) => f.endsWith('.json'));
  const out: BaselineListEntry[] = [];
  for (const file of files) {
    const name = file.slice(0, -'.json'.length);
    try {
      const b = await readBaseline(configDir, name);
      if (!b) continue;
      const agents = new Set(Object.values(b.results).flatMap((a) => Object.keys(a)));
      const pairs = Object.values(b.results).reduce((n, a) => n + Object.keys(a).length, 0);
      out.push({
        name,
        updatedAt: b.updatedAt,
        scenarios: Object.keys(b.results).length,
        agents: agents.size,
        pairs,
      });
    } catch (err) {
      out.push({ name, updatedAt: '', scenarios: 0, agents: 0, pairs: 0, error: (err as Error).message });
    }
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.name.localeCompare(b.name));
}

/** The folder's entries; none when it does not exist. Any other failure is not "no baselines": exit 2. */
async function baselineFiles(configDir: string): Promise<string[]> {
  const dir = baselinesDir(configDir);
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new AxisError(`${shown(dir)}: cannot list the baselines: ${(err as Error).message}`, {
      exitCode: 2,
    });
  }
}

/** Deletes the file, readable or not (a corrupt baseline must be removable); a missing one is an error. */
export async function deleteBaseline(configDir: string, name: string): Promise<string> {
  const path = baselinePath(configDir, name);
  try {
    await rm(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new AxisError(`Cannot delete ${writeErrorText(path, err)}.`, { cause: err });
    await requireBaseline(configDir, name);
  }
  return path;
}
