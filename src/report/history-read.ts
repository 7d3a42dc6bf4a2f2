/**
 * The I/O edge of the history (history.ts): the newest stored reports, oldest first, read from one
 * reports folder. `axis history` and report.html's trend chart both read through here, so they see
 * the same reports. Only report.json files are parsed, at most `limit` of them.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readStoreJson } from './confine.js';
import { compareReportIds, sortReportIds } from './ids.js';
import type { HistoryManifest } from './history.js';
import { parseManifest } from './store.js';

export interface StoredHistory {
  /** Oldest first; unreadable reports are left out (`axis reports` names them). */
  manifests: HistoryManifest[];
  /** Stored reports older than the newest `limit` (not read). */
  olderNotShown: number;
}

export interface HistoryReadOptions {
  limit: number;
  /** Only reports up to this id (a rebuilt report's chart ends at that report). */
  upTo?: string;
  /** Use this manifest for its id instead of reading the file (the run holds it in memory). */
  current?: HistoryManifest;
}

export async function readStoredHistory(
  reportsRoot: string,
  opts: HistoryReadOptions,
): Promise<StoredHistory> {
  const upTo = opts.upTo ?? opts.current?.reportId;
  let ids = sortReportIds(await readdir(reportsRoot).catch(() => [] as string[]));
  if (upTo !== undefined) ids = [...ids.filter((id) => compareReportIds(id, upTo) < 0), upTo];
  const newest = ids.slice(-opts.limit);
  const manifests: HistoryManifest[] = [];
  for (const id of newest) {
    if (opts.current && id === opts.current.reportId) {
      manifests.push(opts.current);
      continue;
    }
    const abs = join(reportsRoot, id, 'report.json');
    try {
      manifests.push(parseManifest(readStoreJson(abs, abs), abs, id));
    } catch {
      // Missing, unreadable or not a report: not in the trend.
    }
  }
  return { manifests, olderNotShown: ids.length - newest.length };
}
