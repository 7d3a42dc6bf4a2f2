/**
 * `axis reports merge <blobs…>`: one report from the blobs of a sharded run (src/report/blob/merge.ts),
 * then the same "after the report" path as `axis run`: the gate's verdict and the reporters (list, json,
 * junit, github) over the merged report. The project's config, when there is one, is loaded for its
 * thresholds (and must be the one the shards ran: merge-gate.ts); `--compare-baseline` gates on a baseline.
 */
import { mergeBlobs } from '../../report/blob/merge.js';
import { findProjectDir } from '../../report/read.js';
import {
  createReporters,
  Dispatcher,
  parseReporterSpecs,
  type RunEnd,
  type Screen,
} from '../../reporters/index.js';
import { AxisError } from '../../util/errors.js';
import { prepareMergeGate, type MergeGate } from './merge-gate.js';
import { configFlag } from '../config-flag.js';
import { shownPath } from '../../util/shown-path.js';

export interface MergeCommandOptions {
  config?: string;
  allowPartial?: boolean;
  json?: boolean;
  /** `--reporter` values (repeatable), as for `axis run`. */
  reporter?: string[];
  /** `true` for a bare `--compare-baseline` (the `main` baseline). */
  compareBaseline?: string | boolean;
}

export default async function mergeCommand(blobs: string[], opts: MergeCommandOptions): Promise<number> {
  const cwd = process.cwd();
  const specs = parseReporterSpecs(opts.reporter ?? [], cwd);
  const projectDir = findProjectDir(cwd, opts.config);
  const screen: Screen = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd };
  const chosen = await createReporters(specs, screen, { json: opts.json ?? false });
  const reporters = new Dispatcher(chosen, screen);
  const info = chosen.some((r) => r.printsToStdout?.()) ? process.stderr : process.stdout;
  try {
    const gate = await prepareMergeGate({
      projectDir,
      cwd,
      config: opts.config,
      compareBaseline: opts.compareBaseline,
    });
    let gated: ReturnType<MergeGate['verdict']> | undefined;
    const outcome = await mergeBlobs({
      inputs: blobs,
      projectDir,
      cwd,
      allowPartial: opts.allowPartial ?? false,
      onWarning: (message) => reporters.onEvent({ type: 'log', level: 'warn', message }),
      check: (set) => gate.check(set),
      verdict: (merged) => (gated = gate.verdict(merged)).verdict,
    });
    const m = outcome.manifest;
    const shards = m.merged?.shards.map((s) => s.index).join(', ') ?? '';
    const n = outcome.blobs.length;
    info.write(`Merged ${n} blob${n === 1 ? '' : 's'} (shards ${shards} of ${m.merged?.total ?? '?'})\n`);
    const note = gate.note();
    if (note) process.stderr.write(`${note}\n`);
    const end: RunEnd = {
      manifest: m,
      reportDir: outcome.reportDir,
      reportRel: shownPath(outcome.reportDir, cwd),
      ...(gated?.comparison ? { comparison: gated.comparison } : {}),
      ...(outcome.lost.length ? { lost: outcome.lost } : {}),
      configArg: configFlag(opts.config),
    };
    // The verdict the merged report.json holds (set by the verdict option above): one truth for both.
    const verdict = m.verdict!;
    await reporters.end(end, verdict);
    // The same rule as `axis run`: 0 only when every job of the whole run completed.
    const hooksOk = m.hooks?.beforeAll?.ok !== false && m.hooks?.afterAll?.ok !== false;
    const saved = outcome.lost.length === 0;
    return m.summary.failed === 0 && !m.incomplete && hooksOk && verdict.pass && saved ? 0 : 1;
  } catch (err) {
    reporters.error(err, err instanceof AxisError ? err.exitCode : 1);
    throw err;
  } finally {
    reporters.dispose();
  }
}
