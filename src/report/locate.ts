/**
 * Where reports live: `.axis/reports/<reportId>/`, the paths of a run's files inside one, and which
 * reports exist (listing, `latest`, reading a report.json).
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { AxisError } from '../util/errors.js';
import { lstatOrNull } from '../util/stat-or-null.js';
import { readStoreJson } from './confine.js';
import { compareReportIds, isReportId } from './ids.js';
import { parseManifest, type ReportManifest } from './manifest.js';

export const AXIS_DIR = '.axis';

/** In a report folder while `axis score` rewrites it; left behind when it stopped mid-way. */
export const SCORE_PENDING = 'score.pending';

export function reportsDir(configDir: string): string {
  return join(configDir, AXIS_DIR, 'reports');
}

/** Agent names are used verbatim except characters no file system accepts. */
export function fileSafe(name: string): string {
  const bad = process.platform === 'win32' ? '<>:"/\\|?*' : '/\\';
  return [...name].map((c) => (bad.includes(c) || c.charCodeAt(0) < 32 ? '_' : c)).join('');
}

/** The paths a run's files would have, relative to the report directory (forward slashes). */
export interface RunPaths {
  detail: string;
  raw: string;
  artifactsDir: string;
  debug: string;
  debugStderr: string;
}

export function runFiles(scenarioKey: string, agentName: string, run: number, runs: number): RunPaths {
  const dir = `scenarios/${scenarioKey}`;
  const agent = fileSafe(agentName);
  const base = runs > 1 ? `${dir}/${agent}.run-${run}` : `${dir}/${agent}`;
  return {
    detail: `${base}.json`,
    raw: `${base}.raw.ndjson`,
    artifactsDir: runs > 1 ? `${dir}/${agent}/run-${run}/artifacts` : `${dir}/${agent}/artifacts`,
    debug: `${base}.debug.ndjson`,
    debugStderr: `${base}.debug.stderr.log`,
  };
}

/**
 * Report ids under `.axis/reports` that hold a report.json, oldest first. lstat, not stat: a report.json
 * that is a FIFO, a device or a broken link is still listed, so reading it can say what is wrong with it.
 */
export async function listReportIds(configDir: string): Promise<string[]> {
  const root = reportsDir(configDir);
  const names = await readdir(root).catch(() => [] as string[]);
  const ids: string[] = [];
  // A synchronous lstat each: an awaited one per report was about 0.1 ms of a store of hundreds.
  for (const name of names.filter(isReportId))
    if (lstatOrNull(join(root, name, 'report.json'))) ids.push(name);
  return ids.sort(compareReportIds);
}

/**
 * The report `latest` names: the newest, except that a sharded run's parts are the merged report once it
 * exists. A merge run on the shards' machine takes the earliest shard's start as its id, so the later
 * shards' own reports sort after it; those the first whole report below them merged are passed over.
 */
export function latestReportId(configDir: string, ids: readonly string[]): string | undefined {
  const passed: string[] = [];
  for (let i = ids.length - 1; i >= 0; i--) {
    const id = ids[i]!;
    const head = reportHead(configDir, id);
    if (head?.shard) {
      passed.push(id);
      continue;
    }
    const merged = new Set(head?.merged?.shards?.map((s) => s.reportId));
    return passed.length && passed.every((p) => merged.has(p)) ? id : ids[ids.length - 1];
  }
  return ids[ids.length - 1];
}

/** What `latestReportId` needs of a report.json; undefined when it cannot be read (its reader says why). */
function reportHead(
  configDir: string,
  id: string,
): (Pick<ReportManifest, 'shard'> & { merged?: { shards?: { reportId: string }[] } }) | undefined {
  try {
    const m = readStoreJson(join(reportsDir(configDir), id, 'report.json'), id);
    return m && typeof m === 'object' ? (m as ReturnType<typeof reportHead>) : undefined;
  } catch {
    return undefined;
  }
}

/** `latest` (or undefined) → {@link latestReportId}; an explicit id must exist. Throws AxisError (exit 1). */
export async function resolveReportId(configDir: string, id: string | undefined): Promise<string> {
  const ids = await listReportIds(configDir);
  const rel = relative(process.cwd(), reportsDir(configDir)) || reportsDir(configDir);
  if (id === undefined || id === 'latest') {
    const latest = latestReportId(configDir, ids);
    if (!latest) throw new AxisError(`No reports found in ${rel}. Run \`axis run\` first.`);
    return latest;
  }
  if (!ids.includes(id)) {
    const recent = ids.slice(-5).reverse().join(', ');
    throw new AxisError(`Report "${id}" not found in ${rel}.${recent ? ` Recent reports: ${recent}` : ''}`);
  }
  return id;
}

export async function readManifest(configDir: string, id: string): Promise<ReportManifest> {
  const path = join(reportsDir(configDir), id, 'report.json');
  const shown = relative(process.cwd(), path) || path;
  return parseManifest(readStoreJson(path, shown), shown, id);
}
