/**
 * `axis reports` lists every stored report, and a report.json can be megabytes (every pair's audits)
 * where its row needs a few counts: a store of a few hundred reports took seconds to list. Each row is
 * kept in `.axis/cache/list/<id>.json`, stamped with report.json's size and modification time and the
 * AXIS version that computed it; a later listing uses it while all three match and reads report.json
 * again when one does not (a rescored report, another AXIS). Like the trend cache (history-read.ts) it
 * is outside the reports folder and only ever a copy: deleting it loses nothing.
 */
import { readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { packageVersion } from '../util/package-root.js';
import { lstatOrNull, statOrNull } from '../util/stat-or-null.js';
import { readStoreJson } from './confine.js';
import { isReportId } from './ids.js';
import { AXIS_DIR, reportsDir } from './locate.js';

const LIST_CACHE_VERSION = 1;

/** A list row without its path (the path is the project's, not the report's): read.ts's ReportListEntry. */
export interface CachedRow {
  reportId: string;
}

export interface RowStamp {
  size: number;
  mtimeMs: number;
}

interface ListCacheEntry<Row extends CachedRow> {
  v: typeof LIST_CACHE_VERSION;
  axis: string;
  stamp: RowStamp;
  row: Row;
}

export function listCacheDir(projectDir: string): string {
  return join(projectDir, AXIS_DIR, 'cache', 'list');
}

/** report.json's stamp, through a link as reading it would; null when it cannot be stat'ed. */
export function rowStamp(projectDir: string, id: string): RowStamp | null {
  const abs = join(reportsDir(projectDir), id, 'report.json');
  const held = lstatOrNull(abs);
  // Only a regular file is cached: reading anything else says what is wrong with it, every time.
  const info = held?.isSymbolicLink() ? statOrNull(abs) : held;
  return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
}

/** The kept row of report `id` when its stamp and the AXIS version match, else null. */
export function cachedRow<Row extends CachedRow>(
  projectDir: string,
  id: string,
  stamp: RowStamp,
): Row | null {
  const file = join(listCacheDir(projectDir), `${id}.json`);
  try {
    const entry = readStoreJson(file, file) as Partial<ListCacheEntry<Row>> | null;
    if (entry?.v !== LIST_CACHE_VERSION || entry.axis !== packageVersion()) return null;
    if (entry.stamp?.size !== stamp.size || entry.stamp.mtimeMs !== stamp.mtimeMs) return null;
    const row = entry.row;
    return row && typeof row === 'object' && row.reportId === id ? row : null;
  } catch {
    return null;
  }
}

/**
 * Keeps `rows` for the next listing and, given every report id of the store (`ids`), removes the
 * entries of reports no longer there. Errors are the caller's to say: the list is complete either way.
 */
export async function keepRows<Row extends CachedRow>(
  projectDir: string,
  rows: readonly { stamp: RowStamp; row: Row }[],
  ids?: readonly string[],
): Promise<void> {
  const dir = listCacheDir(projectDir);
  for (const { stamp, row } of rows) {
    const entry: ListCacheEntry<Row> = { v: LIST_CACHE_VERSION, axis: packageVersion(), stamp, row };
    await writeFileAtomic(join(dir, `${row.reportId}.json`), `${JSON.stringify(entry)}\n`);
  }
  if (!ids) return;
  const known = new Set(ids);
  const root = reportsDir(projectDir);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
    if (!isReportId(id) || known.has(id) || existsSync(join(root, id, 'report.json'))) continue;
    await rm(join(dir, name), { force: true });
  }
}
