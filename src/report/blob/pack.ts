/**
 * Writes a shard's blob: the manifest, then every regular file of its report directory, into one zip
 * (fflate, deflate level 6). report.html is left out (the merge renders its own); symlinks are never
 * followed or stored. The zip is written to a temp file and renamed, so a reader never sees half a blob.
 */
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { AxisError } from '../../util/errors.js';
import { BLOB_MANIFEST, BLOB_REPORT_DIR, blobFileName, type BlobManifest } from './format.js';
import { MAX_BLOB_ENTRIES, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES } from './limits.js';

export interface PackedBlob {
  /** Absolute path of the zip. */
  path: string;
  files: number;
  bytes: number;
}

export async function writeBlob(
  reportDir: string,
  manifest: BlobManifest,
  outDir: string,
): Promise<PackedBlob> {
  const files = await reportFiles(reportDir);
  if (files.length + 1 > MAX_BLOB_ENTRIES)
    throw new AxisError(
      `The shard's report has ${files.length} files; a blob holds at most ${MAX_BLOB_ENTRIES}.`,
    );
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, blobFileName(manifest.shard));
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  let bytes = 0;
  try {
    await zipTo(tmp, async (add) => {
      add(BLOB_MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      for (const rel of files) {
        const data = await readFile(join(reportDir, ...rel.split('/')));
        if (data.length > MAX_ENTRY_BYTES)
          throw new AxisError(
            `${rel} is ${data.length} bytes; a blob file holds at most ${MAX_ENTRY_BYTES}.`,
          );
        bytes += data.length;
        if (bytes > MAX_TOTAL_BYTES)
          throw new AxisError(`The shard's report is over ${MAX_TOTAL_BYTES} bytes, the most a blob holds.`);
        add(`${BLOB_REPORT_DIR}${rel}`, data);
      }
    });
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => {});
    throw err;
  }
  return { path, files: files.length, bytes };
}

/** Streams the zip to `path`; `fill` adds the entries. Rejects on the first write error. */
async function zipTo(
  path: string,
  fill: (add: (name: string, data: Uint8Array) => void) => Promise<void>,
): Promise<void> {
  const out = createWriteStream(path);
  let failed: Error | undefined;
  out.on('error', (err) => (failed ??= err));
  const closed = new Promise<void>((resolve, reject) => {
    out.on('close', () => (failed ? reject(failed) : resolve()));
  });
  const zip = new Zip((err, chunk, final) => {
    if (err) failed ??= err;
    else out.write(chunk);
    if (final || err) out.end();
  });
  try {
    await fill((name, data) => {
      if (failed) throw failed;
      const entry = new ZipDeflate(name, { level: 6 });
      zip.add(entry);
      entry.push(data, true);
    });
    zip.end();
  } catch (err) {
    zip.terminate();
    out.destroy();
    await closed.catch(() => {});
    throw err;
  }
  await closed;
}

/** Regular files under `dir`, forward-slash relative paths, in code-unit order; report.html and temp files left out. */
async function reportFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(join(dir, ...rel.split('/').filter(Boolean)), { withFileTypes: true });
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path);
      else if (e.isFile() && !/\.tmp-\d+-[a-z0-9]+$/.test(e.name) && path !== 'report.html') out.push(path);
      // Symlinks, sockets, FIFOs: never stored (a blob carries plain files only).
    }
  };
  await walk('');
  // lstat once more: a file replaced by a symlink after the walk is skipped too.
  const plain: string[] = [];
  for (const rel of out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const s = await lstat(join(dir, ...rel.split('/')));
    if (s.isFile()) plain.push(rel);
  }
  return plain;
}
