/**
 * A file's stats, or null where there is none or no way to look: missing, or a part of the path that is
 * a file rather than a folder (ENOTDIR, which `throwIfNoEntry: false` still throws), or unreadable. For
 * the loops over a store's reports, which pass over such an entry rather than stop.
 */
import { lstatSync, statSync, type Stats } from 'node:fs';

/** The path itself (a link is a link, broken or not). */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** What the path leads to (through links). */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
