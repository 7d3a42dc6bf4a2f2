/** Finds the config file: `-c <path>` (file or directory), else the nearest axis.config.* upward from cwd. */
import { lstatSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { AxisError } from '../util/errors.js';

export const CONFIG_NAMES = [
  'axis.config.ts',
  'axis.config.mts',
  'axis.config.js',
  'axis.config.mjs',
  'axis.config.cjs',
  'axis.config.json',
] as const;

/** lstat, not stat: a config that is a broken symlink or a loop is found, so loading it can say what is wrong. */
function present(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, a loop in a parent folder, …: there is no such file
  }
}

/** Follows symlinks; false when the path cannot be stat'ed (loading the file then says why). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function configsIn(dir: string): string[] {
  return CONFIG_NAMES.map((n) => join(dir, n)).filter(present);
}

function oneConfig(dir: string, found: string[], cwd: string): string | undefined {
  if (found.length > 1) {
    const names = found.map((p) => relative(cwd, p) || p).join(', ');
    throw new AxisError(
      `Found more than one config in ${relative(cwd, dir) || '.'}: ${names}. Keep one, or pass -c <path>.`,
      {
        exitCode: 2,
      },
    );
  }
  return found[0];
}

/** Config names AXIS does not read: one is refused, not passed over for the config of a folder above. */
export const UNREAD_NAMES = ['axis.config.yaml', 'axis.config.yml', 'axis.config.jsonc', 'axis.config.json5'];

/** Formats a config or scenario is likely written in that JSON.parse does not read, as messages name them. */
const UNREAD_FORMATS: [RegExp, string][] = [
  [/\.ya?ml$/i, 'YAML'],
  [/\.jsonc$/i, 'JSON with comments (JSONC)'],
  [/\.json5$/i, 'JSON5'],
];

/** `YAML`, `JSON with comments (JSONC)` or `JSON5` for a file of such a format, else null. */
export function unreadFormat(name: string): string | null {
  return UNREAD_FORMATS.find(([re]) => re.test(name))?.[1] ?? null;
}

function unreadConfig(dir: string): void {
  const name = UNREAD_NAMES.find((n) => present(join(dir, n)));
  if (name === undefined) return;
  throw new AxisError(
    `No AXIS config found: ${name} in ${dir} is not read: AXIS configs are JSON (axis.config.json) or ` +
      'TS/JS (axis.config.ts, …); convert it, or pass -c <path>.',
    { exitCode: 2 },
  );
}

export function findConfig(explicit: string | undefined, cwd = process.cwd()): string {
  if (explicit) {
    const path = resolve(cwd, explicit);
    if (!present(path))
      throw new AxisError(`Config file not found: ${explicit} (resolved to ${path}).`, { exitCode: 2 });
    if (isDirectory(path)) {
      const found = oneConfig(path, configsIn(path), cwd);
      if (!found) unreadConfig(path);
      if (!found) throw new AxisError(`No ${CONFIG_NAMES.join(', ')} in ${explicit}.`, { exitCode: 2 });
      return found;
    }
    return path;
  }
  let dir = resolve(cwd);
  for (;;) {
    const found = oneConfig(dir, configsIn(dir), cwd);
    if (found) return found;
    unreadConfig(dir);
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  throw new AxisError(
    `No AXIS config found: looked for ${CONFIG_NAMES.join(', ')} in ${resolve(cwd)} and every parent ` +
      `directory up to ${dir}.\nRun \`axis init\` to create one, or pass -c <path>.`,
    { exitCode: 2 },
  );
}
