/**
 * The blob of one shard (`axis run --shard k/n`): a zip holding `axis-blob.json` (this manifest) and the
 * shard's report directory under `report/` (report.json, every run's files and artifacts). Everything
 * `axis reports merge` needs is inside; the shard's machine is never asked again.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describeValue } from '../../util/describe-value.js';
import { AxisError } from '../../util/errors.js';
import { NAME_WITHOUT_CONTROLS } from '../../util/safe-text.js';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../util/package-root.js';
import { jsonErrorAt, parseJson } from '../../util/json.js';

export const BLOB_FORMAT = 'axis-blob';
/** Bumped when the layout or the manifest changes incompatibly; merge refuses newer versions. */
export const BLOB_VERSION = 1;
export const BLOB_MANIFEST = 'axis-blob.json';
/** Report files sit under this folder of the zip. */
export const BLOB_REPORT_DIR = 'report/';

export const AXIS_VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * A job's names become the report's scenario key and agent name, shown on every summary line: none may hold
 * what config validation refuses in them (an escape, a C1 control, a bidi control).
 */
const shownName = (what: string) =>
  z
    .string()
    .min(1)
    .regex(NAME_WITHOUT_CONTROLS, {
      error: (iss) => `expected ${what} without control characters, found ${describeValue(iss.input)}`,
    });

const jobEntry = z.strictObject({
  scenarioKey: shownName('a scenario key'),
  agentName: shownName('an agent name'),
  run: z.number().int().min(1),
  /** Position in the whole (unsharded) plan. */
  index: z.number().int().min(0),
});

export const blobManifestSchema = z.strictObject({
  format: z.literal(BLOB_FORMAT),
  version: z.number().int().min(1),
  /** AXIS version that ran the shard. */
  axisVersion: z.string(),
  /** `version` of the shard's report.json. */
  reportVersion: z.string(),
  /** configFingerprint (src/plan/fingerprint.ts). */
  configHash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Fingerprint of the whole split; equal on every shard of one sharded run. */
  splitHash: z.string().regex(/^[0-9a-f]{16}$/),
  /** The split was weighed by `--shard-durations` (else by job count). */
  weighted: z.boolean(),
  /** false: the shard ran with `--no-score` (absent in blobs of earlier versions: scored). */
  scored: z.boolean().optional(),
  shard: z.strictObject({ index: z.number().int().min(1), total: z.number().int().min(1) }),
  /** Jobs in the whole plan. */
  planJobs: z.number().int().min(0),
  /** This shard's jobs, in plan order. */
  jobs: z.array(jobEntry),
  /** The shard's own report id (on its machine). */
  reportId: z.string(),
  createdAt: z.string(),
});

export type BlobManifest = z.infer<typeof blobManifestSchema>;
export type BlobJob = z.infer<typeof jobEntry>;

/** `axis-blob-02-of-10.zip`: zero-padded, so a directory listing sorts by shard. */
export function blobFileName(shard: { index: number; total: number }): string {
  const width = String(shard.total).length;
  const pad = (n: number) => String(n).padStart(width, '0');
  return `axis-blob-${pad(shard.index)}-of-${pad(shard.total)}.zip`;
}

export const BLOB_NAME_PATTERN = /^axis-blob-\d+-of-\d+\.zip$/;

/** Validates a blob's manifest; `file` names the blob in every error (exit 2). */
export function parseBlobManifest(text: string, file: string): BlobManifest {
  let raw: unknown;
  try {
    raw = parseJson(text);
  } catch (err) {
    throw new AxisError(`${file}: ${BLOB_MANIFEST} is not valid JSON (${jsonErrorAt(err)})`, {
      exitCode: 2,
    });
  }
  const format = (raw as { format?: unknown } | null)?.format;
  const version = (raw as { version?: unknown } | null)?.version;
  if (format !== BLOB_FORMAT)
    throw new AxisError(`${file}: not an AXIS blob (${BLOB_MANIFEST}: format is not "${BLOB_FORMAT}")`, {
      exitCode: 2,
    });
  if (typeof version === 'number' && version > BLOB_VERSION)
    throw new AxisError(
      `${file}: blob format version ${version} is newer than this AXIS reads (${BLOB_VERSION}); ` +
        `merge with AXIS ${(raw as { axisVersion?: unknown }).axisVersion ?? 'of the shards'} or newer`,
      { exitCode: 2 },
    );
  const parsed = blobManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AxisError(`${file}: ${BLOB_MANIFEST}: ${issue.path.join('.') || '(root)'}: ${issue.message}`, {
      exitCode: 2,
    });
  }
  const m = parsed.data;
  if (m.shard.index > m.shard.total)
    throw new AxisError(`${file}: ${BLOB_MANIFEST}: shard ${m.shard.index}/${m.shard.total} is not a shard`, {
      exitCode: 2,
    });
  return m;
}
