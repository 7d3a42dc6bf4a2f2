/**
 * The runner's side of `--shard k/n`: picks this shard's jobs from the whole plan and, once its report is
 * written, packs that report into the shard's blob (src/report/blob/).
 */
import { join } from 'node:path';
import type { LoadedConfig } from '../config/types.js';
import { configFingerprint } from '../plan/fingerprint.js';
import type { Plan } from '../plan/plan.js';
import { selectShard, type JobDurations, type ShardSelection, type ShardSpec } from '../plan/shard.js';
import { readDurations } from '../report/blob/durations.js';
import { AXIS_VERSION, BLOB_FORMAT, BLOB_VERSION, type BlobManifest } from '../report/blob/format.js';
import { AXIS_DIR } from '../report/locate.js';
import { REPORT_VERSION } from '../report/manifest.js';

export interface PreparedShard {
  selection: ShardSelection;
  configHash: string;
  pack(
    reportDir: string,
    reportId: string,
    blobDir?: string,
  ): Promise<
    { blob: { path: string; shard: ShardSpec; jobs: number; planJobs: number } } | { blobError: string }
  >;
}

export function blobsDir(configDir: string): string {
  return join(configDir, AXIS_DIR, 'blobs');
}

export async function prepareShard(
  loaded: LoadedConfig,
  plan: Plan,
  spec: ShardSpec,
  durations: string | JobDurations | undefined,
  cwd: string,
  scored = true,
): Promise<PreparedShard> {
  const byJob = typeof durations === 'string' ? await readDurations(durations, cwd) : durations;
  const selection = selectShard(plan, spec, byJob);
  const configHash = configFingerprint(loaded, plan);
  return {
    selection,
    configHash,
    async pack(reportDir, reportId, blobDir) {
      const manifest: BlobManifest = {
        format: BLOB_FORMAT,
        version: BLOB_VERSION,
        axisVersion: AXIS_VERSION,
        reportVersion: REPORT_VERSION,
        configHash,
        splitHash: selection.splitHash,
        weighted: selection.weighted,
        scored,
        shard: spec,
        planJobs: selection.planJobs,
        jobs: selection.jobs,
        reportId,
        createdAt: new Date().toISOString(),
      };
      try {
        // Imported here: the zip library is needed only by sharded runs.
        const { writeBlob } = await import('../report/blob/pack.js');
        const out = await writeBlob(reportDir, manifest, blobDir ?? blobsDir(loaded.configDir));
        return {
          blob: { path: out.path, shard: spec, jobs: selection.jobs.length, planJobs: selection.planJobs },
        };
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        return { blobError: `Could not write the blob of shard ${spec.index}/${spec.total}: ${e.message}` };
      }
    },
  };
}
