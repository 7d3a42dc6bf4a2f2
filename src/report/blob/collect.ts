/**
 * First half of `axis reports merge`: find the blobs among the inputs, read each one's manifest and
 * report.json, and decide whether they belong together. Nothing is written here.
 */
import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import { jobKeyString, jobKeyText } from '../../plan/shard.js';
import { AxisError } from '../../util/errors.js';
import { reportManifestSchema } from '../schema.js';
import type { ReportManifest } from '../manifest.js';
import {
  BLOB_MANIFEST,
  BLOB_NAME_PATTERN,
  BLOB_REPORT_DIR,
  parseBlobManifest,
  type BlobManifest,
} from './format.js';
import { MAX_JSON_BYTES } from './limits.js';
import { readBlob } from './unpack.js';
import { jsonErrorAt, parseJson } from '../../util/json.js';

export interface BlobInput {
  /** Absolute path. */
  file: string;
  /** As shown in messages (relative to the cwd when inside it). */
  shown: string;
  manifest: BlobManifest;
  /** The shard's report.json. */
  report: ReportManifest;
}

const REPORT_JSON = `${BLOB_REPORT_DIR}report.json`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const fail = (message: string): never => {
  throw new AxisError(message, { exitCode: 2 });
};

/** Files as given; directories: every `axis-blob-*.zip` below them. Sorted, without duplicates. */
export async function findBlobs(inputs: readonly string[], cwd: string): Promise<string[]> {
  if (inputs.length === 0) fail('axis reports merge: name at least one blob file or directory of blobs');
  const found = new Set<string>();
  for (const input of inputs) {
    const abs = resolve(cwd, input);
    const info = await stat(abs).catch((err: NodeJS.ErrnoException) =>
      fail(`axis reports merge: cannot read ${input} (${err.code ?? err.message})`),
    );
    if (info.isDirectory()) {
      const files = await glob('**/axis-blob-*.zip', {
        cwd: abs,
        absolute: true,
        followSymbolicLinks: false,
        onlyFiles: true,
      });
      const blobs = files.filter((f) => BLOB_NAME_PATTERN.test(f.split(/[\\/]/).pop()!));
      if (blobs.length === 0) fail(`axis reports merge: no axis-blob-*.zip file in ${input}`);
      for (const f of blobs) found.add(resolve(f));
    } else found.add(abs);
  }
  return [...found].sort(byText);
}

export function shownPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') ? rel.split('\\').join('/') : abs;
}

/** Reads the manifest and report.json of one blob (nothing else is inflated). */
export async function readBlobHead(file: string, shown: string): Promise<BlobInput> {
  const texts = new Map<string, string>();
  await readBlob(file, {
    shown,
    choose: (name) =>
      name === BLOB_MANIFEST || name === REPORT_JSON ? { maxBytes: MAX_JSON_BYTES } : 'skip',
    onEntry: (name, data) => void texts.set(name, data.toString('utf8')),
    done: () => texts.size === 2,
  });
  const manifestText = texts.get(BLOB_MANIFEST);
  if (manifestText === undefined) fail(`${shown}: not an AXIS blob (no ${BLOB_MANIFEST} inside)`);
  const manifest = parseBlobManifest(manifestText!, shown);
  const reportText = texts.get(REPORT_JSON) ?? fail(`${shown}: the blob holds no ${REPORT_JSON}`);
  let raw: unknown;
  try {
    raw = parseJson(reportText);
  } catch (err) {
    fail(`${shown}: ${REPORT_JSON} is not valid JSON (${jsonErrorAt(err)})`);
  }
  const parsed = reportManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    fail(`${shown}: ${REPORT_JSON}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return { file, shown, manifest, report: parsed.data as ReportManifest };
}

export interface BlobSet {
  blobs: BlobInput[];
  total: number;
  /** Shard numbers no blob holds. */
  missing: number[];
}

/**
 * No job in two blobs or twice in one, and each job's index (which orders the merged report) inside the
 * plan and its own; returns how many jobs the blobs hold.
 */
function checkJobs(blobs: readonly BlobInput[], planJobs: number): number {
  const owner = new Map<string, BlobInput>();
  const indexes = new Set<number>();
  for (const b of blobs) {
    for (const [i, job] of b.manifest.jobs.entries()) {
      const key = jobKeyString(job);
      const other = owner.get(key);
      if (other === b) fail(`${b.shown}: ${BLOB_MANIFEST}: jobs lists ${jobKeyText(job)} twice`);
      if (other)
        fail(
          `axis reports merge: overlapping blobs: ${jobKeyText(job)} is in both ${other.shown} and ${b.shown}`,
        );
      owner.set(key, b);
      const at = `${b.shown}: ${BLOB_MANIFEST}: jobs[${i}].index`;
      if (job.index >= planJobs)
        fail(`${at}: expected an index below the ${planJobs} planned jobs, found ${job.index}`);
      if (indexes.has(job.index)) fail(`${at}: ${job.index} is the index of another job`);
      indexes.add(job.index);
    }
  }
  return owner.size;
}

/**
 * Checks that the blobs are shards of one sharded run: same AXIS version, config hash, shard count,
 * planned jobs and split; no shard twice, no job twice. Throws AxisError (exit 2) naming the blobs that disagree.
 * Missing shards are returned, not refused: the caller decides.
 */
export function checkBlobSet(blobs: readonly BlobInput[]): BlobSet {
  const first = blobs[0]!;
  const differs = (what: string, value: (b: BlobInput) => string | number, hint: string): void => {
    const groups = new Map<string | number, string[]>();
    for (const b of blobs) groups.set(value(b), [...(groups.get(value(b)) ?? []), b.shown]);
    if (groups.size < 2) return;
    const lines = [...groups].map(([v, files]) => `  ${what} ${String(v)}: ${files.join(', ')}`);
    fail(
      `axis reports merge: the blobs are not shards of one run (${what} differs):\n${lines.join('\n')}\n${hint}`,
    );
  };
  differs(
    'AXIS version',
    (b) => b.manifest.axisVersion,
    'Run every shard and the merge with the same AXIS version.',
  );
  differs(
    'config hash',
    (b) => b.manifest.configHash.slice(0, 12),
    'Each shard must run the same checkout (config, scenarios, tapes, the same commit of each remote ' +
      'source), profile, filters and runs (only concurrency may differ).',
  );
  differs(
    'shard count',
    (b) => b.manifest.shard.total,
    'Every shard must be given the same n in --shard k/n.',
  );
  differs(
    'scoring',
    (b) => (b.manifest.scored === false ? 'off (--no-score)' : 'on'),
    'A pair scored on one shard and not on another would headline the wrong run: run every shard with --no-score, or none.',
  );
  differs(
    'planned jobs',
    (b) => b.manifest.planJobs,
    'Every shard of one run plans the same jobs: a blob that says otherwise was edited or damaged.',
  );
  differs(
    'split',
    (b) => b.manifest.splitHash,
    'The shards split the jobs differently: give every shard the same --shard-durations file (or none).',
  );
  const total = first.manifest.shard.total;
  const byShard = new Map<number, BlobInput>();
  for (const b of blobs) {
    const other = byShard.get(b.manifest.shard.index);
    if (other)
      fail(
        `axis reports merge: shard ${b.manifest.shard.index}/${total} appears twice: ${other.shown} and ${b.shown}`,
      );
    byShard.set(b.manifest.shard.index, b);
  }
  const jobs = checkJobs(blobs, first.manifest.planJobs);
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byShard.has(i));
  const planJobs = first.manifest.planJobs;
  if (missing.length === 0 && jobs !== planJobs)
    fail(`axis reports merge: the shards hold ${jobs} jobs, but the run planned ${planJobs}`);
  return {
    blobs: [...blobs].sort((a, b) => a.manifest.shard.index - b.manifest.shard.index),
    total,
    missing,
  };
}
