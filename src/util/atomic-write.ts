/** Writing a file so that a reader sees the old file or the new one, never half of one. */
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeChunksOverlapped } from './chunk-write.js';
import { splitSmall, writeSmallFileAtomic } from './small-write.js';

/** Writes via a temp file in the same directory, then renames: readers see the old or the new file. */
export async function writeFileAtomic(
  path: string,
  data: string | Buffer | Iterable<string | Buffer>,
  mkdirFirst = true,
): Promise<void> {
  if (mkdirFirst) await mkdir(dirname(path), { recursive: true });
  const split = splitSmall(data);
  if ('small' in split) return writeSmallFileAtomic(path, split.small);
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    await writeChunksOverlapped(tmp, split.large);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
}
