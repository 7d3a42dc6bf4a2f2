/**
 * Report ids: the run's UTC start time as `YYYY-MM-DD-HHMMSS`. A second run started in the same second
 * gets `-2`, `-3`, … The directory is claimed with an atomic mkdir, so two processes never share one.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

const ID = /^(\d{4}-\d{2}-\d{2}-\d{6})(?:-(\d+))?$/;

/** `2026-04-15-143022` for 2026-04-15T14:30:22Z. */
export function formatReportId(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${p(date.getUTCFullYear(), 4)}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())}-` +
    `${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`
  );
}

export function isReportId(value: string): boolean {
  return ID.test(value);
}

/** Chronological order: by time, then by suffix (no suffix = 1, so `…-2` follows it and `…-10` follows `…-9`). */
export function compareReportIds(a: string, b: string): number {
  const ma = ID.exec(a);
  const mb = ID.exec(b);
  if (!ma || !mb) return a < b ? -1 : a > b ? 1 : 0;
  if (ma[1] !== mb[1]) return ma[1]! < mb[1]! ? -1 : 1;
  return Number(ma[2] ?? 1) - Number(mb[2] ?? 1);
}

/** Sorts ids oldest first; anything that is not a report id is dropped. */
export function sortReportIds(ids: readonly string[]): string[] {
  return ids.filter(isReportId).sort(compareReportIds);
}

/**
 * Creates `<reportsDir>/<id>` for a run started at `startedAt` and returns the id. The mkdir is the
 * lock: when the directory exists already (same second), the next suffix is tried.
 */
export async function claimReportDir(reportsDir: string, startedAt: Date): Promise<string> {
  await mkdir(reportsDir, { recursive: true });
  const base = formatReportId(startedAt);
  for (let n = 1; n < 10_000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    try {
      await mkdir(join(reportsDir, id));
      return id;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error(
    `Cannot create a report directory for ${base} in ${reportsDir}: too many reports in one second`,
  );
}
