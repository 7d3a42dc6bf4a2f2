/**
 * Finding an agent's executable: the job's PATH first, then `node_modules/.bin` of this package and of
 * every directory above it (so a project that installs axis-eval next to the agent CLI works).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const isWindows = process.platform === 'win32';
const here = dirname(fileURLToPath(import.meta.url));

/**
 * A missing candidate is the common case (each PATH entry before the one that has it): `stat` then
 * reports it without throwing, where building the ENOENT error cost 15-45 µs per entry, per job.
 */
function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return false;
    if (!isWindows) accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidates(dir: string, name: string, pathExt: string | undefined): string[] {
  const base = join(dir, name);
  if (!isWindows) return [base];
  const exts = (pathExt ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean);
  return [base, ...exts.map((e) => base + e.toLowerCase())];
}

/** `node_modules/.bin` directories from this module's folder up to the filesystem root. */
export function packageBinDirs(from: string = here): string[] {
  const dirs: string[] = [];
  let dir = from;
  for (;;) {
    dirs.push(join(dir, 'node_modules', '.bin'));
    const parent = dirname(dir);
    if (parent === dir) return dirs;
    dir = parent;
  }
}

export interface ResolveOptions {
  /** The child's PATH (the job env's, not the host's). */
  path?: string;
  /** Base for relative paths (`./agent.sh`, `bin/agent`). */
  cwd?: string;
  pathExt?: string;
  /** Extra directories searched after PATH (default: node_modules/.bin above this package). */
  fallbackDirs?: string[];
}

/**
 * Absolute path of an executable, or undefined. A name containing a path separator is taken as a
 * path (relative to `cwd`); a bare name is searched on PATH, then in the fallback directories.
 */
export function resolveBinary(name: string, opts: ResolveOptions = {}): string | undefined {
  if (name.includes('/') || (isWindows && name.includes('\\'))) {
    const abs = isAbsolute(name) ? name : resolve(opts.cwd ?? process.cwd(), name);
    return candidates(dirname(abs), abs.slice(dirname(abs).length + 1), opts.pathExt).find(isExecutableFile);
  }
  const dirs = [
    ...(opts.path ?? '').split(delimiter).filter(Boolean),
    ...(opts.fallbackDirs ?? packageBinDirs()),
  ];
  for (const dir of dirs) {
    const found = candidates(dir, name, opts.pathExt).find(isExecutableFile);
    if (found) return found;
  }
  return undefined;
}

/** The message for an executable that cannot be found. */
export function missingBinaryMessage(adapter: string, name: string, npmPackage?: string): string {
  if (name.includes('/')) {
    return `Cannot start ${adapter}: "${name}" does not exist or is not executable`;
  }
  const install = npmPackage ? ` Install it with: npm install -D ${npmPackage}` : '';
  return `Cannot start ${adapter}: "${name}" was not found on PATH or in node_modules/.bin.${install}`;
}
