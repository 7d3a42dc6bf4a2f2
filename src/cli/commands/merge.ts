/**
 * `axis reports merge <blobs…>`: one report from the blobs of a sharded run (src/report/blob/merge.ts),
 * then the same summary `axis run` prints. Reads blobs only: the config is never loaded.
 */
import { relative } from 'node:path';
import { mergeBlobs } from '../../report/blob/merge.js';
import { findProjectDir } from '../../report/read.js';
import { summaryText } from '../../reporters/format.js';

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
  const reportRel = rel && !rel.startsWith('..') ? rel : outcome.reportDir;
  if (opts.json) process.stdout.write(`${JSON.stringify({ ...m, reportDir: reportRel }, null, 2)}\n`);
  else {
    const shards = m.merged?.shards.map((s) => s.index).join(', ') ?? '';
    process.stdout.write(
      `Merged ${outcome.blobs.length} blob${outcome.blobs.length === 1 ? '' : 's'} (shards ${shards} of ${m.merged?.total ?? '?'})\n`,
    );
    const configArg = opts.config ? ` -c ${opts.config}` : '';
    process.stdout.write(summaryText(m, { reportRel, configArg }));
  }
  // The same rule as `axis run`: 0 only when every job of the whole run completed.
  const hooksOk = m.hooks?.beforeAll?.ok !== false && m.hooks?.afterAll?.ok !== false;
  return m.summary.failed === 0 && !m.incomplete && hooksOk ? 0 : 1;
}
