/**
 * `axis reports merge`: one report from the blobs of a sharded run, built by the same code as an unsharded
 * run's: every run's stored result goes through `buildManifest` (pairs, representative runs, spreads,
 * reliability and summaries from src/report/scores.ts), and report.html is rendered from the result.
 *
 * Only the files a run owns are restored, at the paths AXIS itself gives them (`runFiles`), never at
 * paths the blob names: a blob cannot place a file anywhere else. A failed merge leaves no report behind.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { jobKeyString, jobKeyText, type JobKey } from '../../plan/shard.js';
import type { JobResult } from '../job-result.js';
import { AxisError } from '../../util/errors.js';
import { claimReportDir } from '../ids.js';
import { buildManifest } from '../build-manifest.js';
import type { HookRecord, ReportManifest } from '../manifest.js';
import { reportsDir, runFiles } from '../locate.js';
import { runDetailSchema } from '../schema.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { writeErrorReason } from '../../util/write-error.js';
import { storeDirError, type StoreFailure } from '../store.js';
import { checkBlobSet, findBlobs, readBlobHead, shownPath, type BlobInput } from './collect.js';
import { BLOB_REPORT_DIR, type BlobJob } from './format.js';
import { MAX_JSON_BYTES } from './limits.js';
import { readBlob } from './unpack.js';
import type { RunVerdict } from '../verdict.js';
import { jsonErrorAt, parseJson } from '../../util/json.js';

export interface MergeOptions {
  /** Blob files and/or directories holding `axis-blob-*.zip` files. */
  inputs: readonly string[];
  /** The project whose `.axis/reports/` receives the merged report. */
  projectDir: string;
  cwd?: string;
  /** Merge even when shards are missing; the report is then marked incomplete. */
  allowPartial?: boolean;
  onWarning?: (message: string) => void;
  /** Runs once the blob set is known to belong together, before anything is written; may throw. */
  check?: (blobs: readonly BlobInput[]) => void | Promise<void>;
  /** The gate's verdict over the merged report, stored in its report.json. */
  verdict?: (manifest: ReportManifest) => RunVerdict;
}

export interface MergeOutcome {
  reportId: string;
  reportDir: string;
  manifest: ReportManifest;
  /** Blob paths as shown, in shard order. */
  blobs: string[];
  missing: number[];
  /** Parts of the merged report that could not be written (report.html): the merge fails (exit 1). */
  lost: StoreFailure[];
}

export async function mergeBlobs(opts: MergeOptions): Promise<MergeOutcome> {
  const cwd = opts.cwd ?? process.cwd();
  const files = await findBlobs(opts.inputs, cwd);
  const heads: BlobInput[] = [];
  for (const file of files) heads.push(await readBlobHead(file, shownPath(cwd, file)));
  const set = checkBlobSet(heads);
  if (set.missing.length && !opts.allowPartial)
    throw new AxisError(
      `axis reports merge: ${missingText(set.missing, set.total)}; merged: ${set.blobs
        .map((b) => `${b.manifest.shard.index}/${set.total}`)
        .join(', ')}.\n` +
        'A report without them would leave their jobs out. Pass --allow-partial to merge anyway ' +
        '(the report is then marked incomplete).',
      { exitCode: 2 },
    );
  if (set.missing.length)
    opts.onWarning?.(`${missingText(set.missing, set.total)}: the merged report is incomplete`);
  await opts.check?.(set.blobs);

  const startedAt = new Date(Math.min(...set.blobs.map((b) => Date.parse(b.report.timestamp))));
  const endedAt = new Date(Math.max(...set.blobs.map((b) => Date.parse(b.report.updatedAt))));
  const root = reportsDir(opts.projectDir);
  const reportId = await claimReportDir(
    root,
    Number.isNaN(startedAt.getTime()) ? new Date() : startedAt,
  ).catch((err: unknown) => {
    throw storeDirError(root, err);
  });
  const dir = join(root, reportId);
  try {
    const results: JobResult[] = [];
    for (const blob of set.blobs) results.push(...(await restoreBlob(blob, dir, reportId)));
    const merged = mergedManifest(set.blobs, results, {
      reportId,
      startedAt,
      endedAt,
      missing: set.missing,
    });
    const manifest = opts.verdict ? { ...merged, verdict: opts.verdict(merged) } : merged;
    await writeFileAtomic(join(dir, 'report.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const lost: StoreFailure[] = [];
    await import('../html/write.js')
      .then((html) => html.writeReportHtml(dir))
      .catch((err: unknown) => {
        opts.onWarning?.(`Could not write report.html: ${(err as Error).message}`);
        lost.push({ path: 'report.html', message: writeErrorReason((err as Error).cause ?? err) });
      });
    const blobs = set.blobs.map((b) => b.shown);
    return { reportId, reportDir: dir, manifest, blobs, missing: set.missing, lost };
  } catch (err) {
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}

function missingText(missing: readonly number[], total: number): string {
  return `${missing.length === 1 ? 'shard' : 'shards'} ${missing.map((i) => `${i}/${total}`).join(', ')} missing`;
}

/** The files one job may have in a blob (report-relative), from the job's identity alone. */
function ownedFiles(job: JobKey, runs: number) {
  const f = runFiles(job.scenarioKey, job.agentName, job.run, runs);
  return {
    detail: f.detail,
    exact: new Set([
      f.detail,
      f.raw,
      f.debug,
      f.debugStderr,
      f.detail.replace(/\.json$/, '.sparse-index.txt'),
    ]),
    artifacts: `${f.artifactsDir}/`,
  };
}

/** Writes the blob's run files into `dir` and returns its runs' results with their whole-plan index. */
async function restoreBlob(blob: BlobInput, dir: string, reportId: string): Promise<JobResult[]> {
  const runs = blob.report.settings.runs;
  const owners = new Map<string, { job: BlobJob }>();
  const detailOf = new Map<string, BlobJob>();
  const artifactDirs = new Map<string, BlobJob>();
  for (const job of blob.manifest.jobs) {
    const owned = ownedFiles(job, runs);
    for (const rel of owned.exact) owners.set(rel, { job });
    detailOf.set(owned.detail, job);
    artifactDirs.set(owned.artifacts, job);
  }
  // A file below some job's `…/artifacts/` (scenario keys may themselves contain "artifacts").
  const ownerOf = (rel: string): BlobJob | undefined => {
    const exact = owners.get(rel)?.job;
    if (exact) return exact;
    for (let at = rel.indexOf('/artifacts/'); at !== -1; at = rel.indexOf('/artifacts/', at + 1)) {
      const dirPart = rel.slice(0, at + '/artifacts/'.length);
      if (dirPart.length < rel.length && artifactDirs.has(dirPart)) return artifactDirs.get(dirPart);
    }
    return undefined;
  };

  const results = new Map<string, JobResult>();
  await readBlob(blob.file, {
    shown: blob.shown,
    choose: (name) => {
      if (!name.startsWith(BLOB_REPORT_DIR)) return 'skip';
      const rel = name.slice(BLOB_REPORT_DIR.length);
      // Everything else (report.json, report.html, files of no job of this shard) is not restored.
      return ownerOf(rel)
        ? { maxBytes: detailOf.has(rel) ? MAX_JSON_BYTES : Number.POSITIVE_INFINITY }
        : 'skip';
    },
    onEntry: async (name, data) => {
      const rel = name.slice(BLOB_REPORT_DIR.length);
      const job = detailOf.get(rel);
      let bytes: Buffer | string = data;
      if (job) {
        const result = storedResult(data, job, blob.shown, rel);
        results.set(jobKeyString(job), result);
        bytes = `${JSON.stringify({ reportId, ...result }, null, 2)}\n`;
      }
      await writeNew(dir, rel, bytes, blob.shown);
    },
  });
  const missing = blob.manifest.jobs.filter((j) => !results.has(jobKeyString(j)));
  if (missing.length)
    throw new AxisError(
      `${blob.shown}: no stored result for ${missing.map(jobKeyText).join('; ')} (the blob is incomplete)`,
      { exitCode: 2 },
    );
  return blob.manifest.jobs.map((j) => results.get(jobKeyString(j))!);
}

/** A run's detail file as its JobResult, checked against the job the blob says it is. */
function storedResult(data: Buffer, job: BlobJob, shown: string, rel: string): JobResult {
  let raw: unknown;
  try {
    raw = parseJson(data.toString('utf8'));
  } catch (err) {
    throw new AxisError(`${shown}: ${rel} is not valid JSON (${jsonErrorAt(err)})`, { exitCode: 2 });
  }
  // The whole published shape: the report is rebuilt from these files, so a damaged or forged field would
  // otherwise surface as a crash in scoring or rendering.
  const shaped = runDetailSchema.safeParse(raw);
  if (!shaped.success) {
    const issue = shaped.error.issues[0]!;
    throw new AxisError(`${shown}: ${rel}: ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
      exitCode: 2,
    });
  }
  const r = raw as JobResult & { reportId?: unknown };
  const ok = r.scenarioKey === job.scenarioKey && r.agentName === job.agentName && r.run === job.run;
  if (!ok)
    throw new AxisError(`${shown}: ${rel} is not the stored result of ${jobKeyText(job)}`, { exitCode: 2 });
  const { reportId: _shardReport, ...result } = r as JobResult & { reportId?: unknown };
  // Overwriting keeps the key order of the stored file: the merged file reads like an unsharded one.
  return Object.assign(result, { index: job.index });
}

/** Creates `rel` under `dir`; never writes through an existing file or symlink (O_EXCL). */
async function writeNew(dir: string, rel: string, data: Buffer | string, shown: string): Promise<void> {
  const path = join(dir, ...rel.split('/'));
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, data, { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AxisError(`Cannot write ${rel} of ${shown} into the merged report: ${code ?? String(err)}`, {
      exitCode: code === 'EEXIST' ? 2 : 1,
    });
  }
}

function mergedManifest(
  blobs: readonly BlobInput[],
  results: readonly JobResult[],
  at: { reportId: string; startedAt: Date; endedAt: Date; missing: readonly number[] },
): ReportManifest {
  const reports = blobs.map((b) => b.report);
  const first = reports[0]!;
  const total = blobs[0]!.manifest.shard.total;
  const label = (b: BlobInput) => `shard ${b.manifest.shard.index}/${total}`;
  const reasons = [
    ...(at.missing.length ? [`${missingText(at.missing, total)} (merged with --allow-partial)`] : []),
    ...blobs
      .filter((b) => b.report.incomplete)
      .map((b) => `${label(b)}: ${b.report.incompleteReason ?? 'incomplete'}`),
  ];
  const rerun = new Set(reports.map((r) => r.rerunOf));
  const manifest = buildManifest({
    reportId: at.reportId,
    ...(first.name ? { name: first.name } : {}),
    startedAt: at.startedAt,
    now: at.endedAt,
    incomplete: reasons.length > 0,
    ...(reasons.length ? { incompleteReason: reasons.join('; ') } : {}),
    config: first.config,
    ...(first.profile ? { profile: first.profile } : {}),
    settings: first.settings,
    results,
    skippedScenarios: first.skippedScenarios ?? [],
    ...mergedHooks(blobs, label),
    ...(rerun.size === 1 && first.rerunOf ? { rerunOf: first.rerunOf } : {}),
  });
  manifest.merged = {
    configHash: blobs[0]!.manifest.configHash,
    total,
    shards: blobs.map((b) => ({
      index: b.manifest.shard.index,
      reportId: b.manifest.reportId,
      blob: b.shown.split(/[\\/]/).pop()!,
    })),
    ...(at.missing.length ? { missing: [...at.missing] } : {}),
  };
  return manifest;
}

/** Each shard ran beforeAll/afterAll on its own machine: ok when all were; errors and notes kept per shard. */
function mergedHooks(
  blobs: readonly BlobInput[],
  label: (b: BlobInput) => string,
): { hooks?: ReportManifest['hooks'] } {
  const hooks: NonNullable<ReportManifest['hooks']> = {};
  for (const phase of ['beforeAll', 'afterAll'] as const) {
    const records = blobs
      .map((b) => [b, b.report.hooks?.[phase]] as const)
      .filter((x): x is readonly [BlobInput, HookRecord] => x[1] !== undefined);
    if (records.length === 0) continue;
    const joined = (field: 'error' | 'notes') =>
      records
        .filter(([, r]) => r[field])
        .map(([b, r]) => (records.length > 1 ? `${label(b)}: ${r[field]}` : r[field]!))
        .join('\n');
    const error = joined('error');
    const notes = joined('notes');
    hooks[phase] = {
      ok: records.every(([, r]) => r.ok),
      ...(error ? { error } : {}),
      ...(notes ? { notes } : {}),
    };
  }
  return Object.keys(hooks).length ? { hooks } : {};
}
