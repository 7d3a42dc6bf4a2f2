/**
 * `axis reports merge <blobs…>`: one report from the blobs of a sharded run (src/report/blob/merge.ts),
 * then the report's summary as `axis reports <id>` shows it. Reads blobs only: the config is never loaded.
 *
 * Seam for the CI gate: once `--compare-baseline` (src/compare) and `--reporter` (src/reporters) exist,
 * `showMerged` hands the merged report to them exactly as `axis run` does after writing its report.
 */
import { relative } from 'node:path';
import { mergeBlobs } from '../../report/blob/merge.js';
import { formatReport } from '../../report/format.js';
import { findProjectDir } from '../../report/read.js';
import type { ReportManifest } from '../../report/store.js';

export interface MergeCommandOptions {
  config?: string;
  allowPartial?: boolean;
  json?: boolean;
}

export default async function mergeCommand(blobs: string[], opts: MergeCommandOptions): Promise<number> {
  const cwd = process.cwd();
  const projectDir = findProjectDir(cwd, opts.config);
  const outcome = await mergeBlobs({
    inputs: blobs,
    projectDir,
    cwd,
    allowPartial: opts.allowPartial ?? false,
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  const m = outcome.manifest;
  const rel = relative(cwd, outcome.reportDir);
  showMerged(m, rel && !rel.startsWith('..') ? rel : outcome.reportDir, outcome.blobs.length, opts);
  // The same rule as `axis run`: 0 only when every job of the whole run completed.
  const hooksOk = m.hooks?.beforeAll?.ok !== false && m.hooks?.afterAll?.ok !== false;
  return m.summary.failed === 0 && !m.incomplete && hooksOk ? 0 : 1;
}

function showMerged(m: ReportManifest, reportRel: string, blobs: number, opts: MergeCommandOptions): void {
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ ...m, reportDir: reportRel }, null, 2)}\n`);
    return;
  }
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  const shards = m.merged?.shards.map((s) => s.index).join(', ') ?? '';
  process.stdout.write(
    `Merged ${blobs} blob${blobs === 1 ? '' : 's'} (shards ${shards} of ${m.merged?.total ?? '?'})\n\n` +
      formatReport(m, reportRel, { color }) +
      `\nReport saved: ${reportRel}\n`,
  );
}
