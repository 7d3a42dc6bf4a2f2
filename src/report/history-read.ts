/**
 * The I/O edge of the history (history.ts): the newest stored reports, oldest first, read from one
 * reports folder. `axis history` and report.html's trend chart both read through here, so they see
 * the same reports. At most `limit` reports are taken (a shard's own report is read but not taken).
 *
 * A report.json can be megabytes (every pair's audits), and the history needs a few fields of it. So
 * when report.html is written (`cacheMisses`), what the history read of each report is kept in
 * `.axis/cache/trend/<id>.json`, stamped with report.json's size and mtime; a later read uses it while
 * the stamp matches and parses report.json again when it does not. It is outside the reports folder
 * (blobs, merges and `axis reports` never see it) and only ever a copy: deleting it loses nothing.
 */
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readStoreJson } from './confine.js';
import type { HistoryManifest } from './history.js';
import { compareReportIds, isReportId, sortReportIds } from './ids.js';
import { AXIS_DIR } from './locate.js';
import { parseManifest } from './manifest.js';
import { HISTORY_SHAPE } from './manifest-shape.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { lstatOrNull, statOrNull } from '../util/stat-or-null.js';

/** `.axis/cache/trend` for `.axis/reports`; none for a folder that is not a project's store. */
export function trendCacheDir(reportsRoot: string): string | null {
  const axis = dirname(reportsRoot);
  return basename(reportsRoot) === 'reports' && basename(axis) === AXIS_DIR
    ? join(axis, 'cache', 'trend')
    : null;
}

export interface StoredHistory {
  /** Oldest first; unreadable reports are left out (`axis reports` names them). */
  manifests: HistoryManifest[];
  /** Stored reports older than the newest `limit`, shards' own left out (not parsed unless maybe one). */
  olderNotShown: number;
  /** Reports read from report.json because no current cache entry existed: `writeTrendCache` keeps them. */
  cacheMisses: CacheEntry[];
  /** Every report id in the folder (read or not), for `writeTrendCache` to drop entries of deleted ones. */
  ids: string[];
}

export interface HistoryReadOptions {
  limit: number;
  /** Only reports up to this id (a rebuilt report's chart ends at that report). */
  upTo?: string;
  /** Use this manifest for its id instead of reading the file (the run holds it in memory). */
  current?: HistoryManifest;
}

/** Entries of an older format (without `shard`) are read again from report.json. */
const CACHE_VERSION = 2;

interface CacheEntry {
  v: typeof CACHE_VERSION;
  id: string;
  stamp: { size: number; mtimeMs: number };
  manifest: HistoryManifest;
}

export async function readStoredHistory(
  reportsRoot: string,
  opts: HistoryReadOptions,
): Promise<StoredHistory> {
  const upTo = opts.upTo ?? opts.current?.reportId;
  const all = sortReportIds(await readdir(reportsRoot).catch(() => [] as string[]));
  let ids = all;
  if (upTo !== undefined) ids = [...ids.filter((id) => compareReportIds(id, upTo) < 0), upTo];
  const manifests: HistoryManifest[] = [];
  const cacheMisses: CacheEntry[] = [];
  // Newest first until `limit` reports are taken. A shard's report holds part of the runs (the merged
  // report counts them once), so it is left out without using up the limit.
  let at = ids.length;
  for (let taken = 0; at > 0 && taken < opts.limit;) {
    const id = ids[--at]!;
    if (opts.current && id === opts.current.reportId) {
      manifests.push(opts.current);
      taken++;
      continue;
    }
    const read = await readOne(reportsRoot, id);
    // A folder without report.json (a failed run's junit.xml alone) is no report: it takes no place.
    if (read === ABSENT) continue;
    if (read?.miss) cacheMisses.push(read.miss);
    if (read?.manifest.shard) continue;
    taken++;
    if (read) manifests.push(read.manifest); // else unreadable: counted, not in the trend
  }
  const olderNotShown = await countOlder(reportsRoot, ids.slice(0, at), cacheMisses);
  return { manifests: manifests.reverse(), olderNotShown, cacheMisses, ids: all };
}

/**
 * The reports among `ids` a larger limit would take, by the rule above: a folder without report.json
 * and a shard's own report are none (the merged report counts its runs); an unreadable one is. This runs
 * over every older report of the store at each report.html, so it costs each one a synchronous lstat
 * and a read of its small cache entry (asynchronous stats and a validated parse of the entry were
 * about 0.25 ms per stored report: a store of 1,000 reports added a quarter of a second to every run).
 * A report without a current entry is parsed once (into `misses`, which the writer keeps), not read
 * again at every run.
 */
async function countOlder(root: string, ids: readonly string[], misses: CacheEntry[]): Promise<number> {
  let count = 0;
  for (const id of ids) {
    const abs = join(root, id, 'report.json');
    // lstat, as `axis reports` lists them: a broken link is an unreadable report, not none.
    const held = lstatOrNull(abs);
    if (!held) continue;
    const info = held.isSymbolicLink() ? statOrNull(abs) : held;
    if (!info) {
      count++; // a broken link: an unreadable report
      continue;
    }
    const shard = cachedShard(root, id, { size: info.size, mtimeMs: info.mtimeMs });
    if (shard !== null) {
      if (!shard) count++;
      continue;
    }
    const read = await readOne(root, id);
    if (read === ABSENT) continue;
    if (read?.miss) misses.push(read.miss);
    if (!read?.manifest.shard) count++; // an unreadable one (null) too
  }
  return count;
}

/**
 * Whether the current cache entry of report `id` is a shard's own report; null without a current
 * entry. Only counting reads this, so the entry is not checked against the history's shape (an entry
 * is only ever written from a report.json that was).
 */
function cachedShard(root: string, id: string, stamp: CacheEntry['stamp']): boolean | null {
  const entry = cacheEntry(root, id, stamp);
  if (!entry) return null;
  const manifest = entry.manifest as { shard?: unknown } | null | undefined;
  return typeof manifest === 'object' && manifest !== null && Boolean(manifest.shard);
}

/** A report folder with no report.json at all. */
const ABSENT = 'absent';

async function readOne(
  root: string,
  id: string,
): Promise<{ manifest: HistoryManifest; miss?: CacheEntry } | typeof ABSENT | null> {
  const abs = join(root, id, 'report.json');
  const info = await stat(abs).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? ABSENT : null));
  if (info === ABSENT || !info) return info;
  const stamp = { size: info.size, mtimeMs: info.mtimeMs };
  const cached = readCache(root, id, stamp);
  if (cached) return { manifest: cached };
  try {
    const manifest = slim(parseManifest(readStoreJson(abs, abs), abs, id, HISTORY_SHAPE));
    return { manifest, miss: { v: CACHE_VERSION, id, stamp, manifest } };
  } catch {
    return null;
  }
}

function readCache(root: string, id: string, stamp: CacheEntry['stamp']): HistoryManifest | null {
  const entry = cacheEntry(root, id, stamp);
  if (!entry) return null;
  const file = join(trendCacheDir(root)!, `${id}.json`);
  try {
    return slim(parseManifest(entry.manifest, file, id, HISTORY_SHAPE));
  } catch {
    return null;
  }
}

/** The cache entry of report `id` when there is one of this format, stamped as report.json is now. */
function cacheEntry(root: string, id: string, stamp: CacheEntry['stamp']): Partial<CacheEntry> | null {
  const dir = trendCacheDir(root);
  if (!dir) return null;
  const file = join(dir, `${id}.json`);
  try {
    const entry = readStoreJson(file, file) as Partial<CacheEntry> | null;
    if (entry?.v !== CACHE_VERSION) return null;
    if (entry.stamp?.size !== stamp.size || entry.stamp.mtimeMs !== stamp.mtimeMs) return null;
    return entry;
  } catch {
    return null;
  }
}

/** Only what the history reads of a report. */
function slim(m: HistoryManifest): HistoryManifest {
  return {
    reportId: m.reportId,
    ...(m.timestamp ? { timestamp: m.timestamp } : {}),
    summary: { averageAxisScore: m.summary?.averageAxisScore ?? null },
    ...(m.shard ? { shard: { index: m.shard.index, total: m.shard.total } } : {}),
    results: m.results.map((r) => ({
      scenarioKey: r.scenarioKey,
      agentName: r.agentName,
      ...(r.status !== undefined ? { status: r.status } : {}),
      ...(r.score
        ? {
            score: {
              status: r.score.status,
              ...(r.score.axisScore !== undefined ? { axisScore: r.score.axisScore } : {}),
            },
          }
        : {}),
    })),
  };
}

/**
 * The cache entry of a report just written, from the manifest exactly as its report.json holds it (the
 * caller has it in memory), so the next run's chart does not parse this report.json again. Stamped
 * with the file as it is now: if report.json is rewritten after, the stamp no longer matches and the
 * file is read, as for any other miss. Null when the file is not there.
 */
export async function writtenCacheEntry(
  reportDir: string,
  written: HistoryManifest,
): Promise<CacheEntry | null> {
  const info = await stat(join(reportDir, 'report.json')).catch(() => null);
  if (!info) return null;
  const id = basename(reportDir);
  const manifest = slim(parseManifest(written, join(reportDir, 'report.json'), id, HISTORY_SHAPE));
  return { v: CACHE_VERSION, id, stamp: { size: info.size, mtimeMs: info.mtimeMs }, manifest };
}

/**
 * Keeps what was read from report.json files for the next read (report.html writers call this). With
 * `ids` (the folder's reports, as `readStoredHistory` listed them), entries of reports no longer there
 * (deleted by hand) are removed, so the cache never outgrows the store. An entry is removed only if its
 * report folder is still missing when checked: another run's report made since the listing keeps its
 * entry. Other files in the cache folder (a write in progress) are left alone.
 */
export async function writeTrendCache(
  reportsRoot: string,
  misses: readonly CacheEntry[],
  ids?: readonly string[],
): Promise<void> {
  const dir = trendCacheDir(reportsRoot);
  if (!dir) return;
  for (const m of misses) await writeFileAtomic(join(dir, `${m.id}.json`), `${JSON.stringify(m)}\n`);
  if (!ids) return;
  const known = new Set(ids);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
    if (!isReportId(id) || known.has(id) || existsSync(join(reportsRoot, id))) continue;
    await rm(join(dir, name), { force: true });
  }
}
