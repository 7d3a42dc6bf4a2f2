import { relative } from 'node:path';

/** A path as messages show it: relative to `cwd` when it lies under it, else as given. */
export function shownPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') ? rel : path;
}
