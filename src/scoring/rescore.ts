/**
 * `axis score`: (re)scores an existing report from its stored raw results — transcripts and check
 * outcomes in the per-run files — with the current config's judge, so judging can change without
 * re-running any agent. Deterministic checks need the workspace, which is gone: their stored outcomes
 * are kept. Per-run files and report.json are rewritten atomically.
 */
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { LoadedConfig } from '../config/types.js';
import {
  createScrubber,
  readManifest,
  reportsDir,
  resolveReportId,
  writeFileAtomic,
  type ReportManifest,
} from '../report/store.js';
import { secretValues } from '../runner/env.js';
import type { JobResult } from '../runner/job-result.js';
import { startSimulator, type Simulator } from '../sim/server.js';
import { JudgeCache } from './cache.js';
import type { RunScore } from './pipeline.js';
import { applyScores } from './report.js';
import { scoreStored, sparseIndexPath } from './stage.js';

export interface RescoreOptions {
  loaded: LoadedConfig;
  /** Report id or `latest` (default). */
  reportId?: string;
  /** false (`--no-cache`): ask the judges even for cached answers. */
  cache?: boolean;
  /** Runs scored at once; default min(settings.concurrency, 4). */
  concurrency?: number;
  hostEnv?: Readonly<Record<string, string | undefined>>;
  baseDelayMs?: number;
  signal?: AbortSignal;
  /** Called as each run is scored (progress output). */
  onRun?: (run: RescoredRun) => void;
  onWarning?: (message: string) => void;
}

export interface RescoredRun {
  scenarioKey: string;
  agentName: string;
  run: number;
  runs: number;
  score: RunScore;
}

export interface RescoreOutcome {
  reportId: string;
  reportDir: string;
  manifest: ReportManifest;
  runs: RescoredRun[];
  /** Runs whose per-run file could not be read (left as they were). */
  skipped: string[];
}

export async function rescoreReport(opts: RescoreOptions): Promise<RescoreOutcome> {
  const { loaded } = opts;
  const configDir = loaded.configDir;
  const reportId = await resolveReportId(configDir, opts.reportId);
  const reportDir = join(reportsDir(configDir), reportId);
  const manifest = await readManifest(configDir, reportId);
  const cache = JudgeCache.forConfigDir(configDir, opts.cache !== false);
  const simulate = loaded.config.settings.simulate !== false;
  const scrub = createScrubber({
    secrets: secretValues(opts.hostEnv ?? process.env),
    paths: [[configDir.endsWith(sep) ? configDir : configDir + sep, '']],
  });
  const abs = (rel: string) => join(reportDir, ...rel.split('/'));

  const jobs: { rel: string; label: string }[] = [];
  for (const entry of manifest.results)
    for (const run of entry.runs)
      if (run.files?.detail)
        jobs.push({
          rel: run.files.detail,
          label: `${entry.scenarioKey} · ${entry.agentName} run ${run.run}`,
        });

  const results: JobResult[] = [];
  const scored: RescoredRun[] = [];
  const skipped: string[] = [];
  const warned = new Set<string>();
  const limit = Math.max(1, opts.concurrency ?? Math.min(4, loaded.config.settings.concurrency));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      let stored: JobResult & { reportId?: string };
      try {
        stored = JSON.parse(await readFile(abs(job.rel), 'utf8')) as JobResult & { reportId?: string };
      } catch (err) {
        skipped.push(
          `${job.label}: cannot read ${job.rel} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        );
        continue;
      }
      let sim: Simulator | undefined;
      let simError: string | undefined;
      if (simulate && stored.status === 'completed') {
        const scenario = loaded.scenarios.find((s) => s.key === stored.scenarioKey);
        try {
          if (!scenario) throw new Error(`scenario ${stored.scenarioKey} is no longer in the config`);
          sim = await startSimulator({ tape: scenario.tape });
        } catch (err) {
          simError = `cannot start the simulator judge: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
        }
      }
      try {
        const out = await scoreStored(stored, {
          loaded,
          cache,
          ...(opts.hostEnv ? { hostEnv: opts.hostEnv } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(sim ? { simulatorUrl: sim.url } : {}),
          ...(simError ? { judgeError: simError } : {}),
          ...(opts.baseDelayMs !== undefined ? { baseDelayMs: opts.baseDelayMs } : {}),
        });
        const score = out.score;
        const { reportId: _id, ...rest } = stored;
        const result: JobResult = { ...rest, score };
        await writeFileAtomic(
          abs(job.rel),
          `${JSON.stringify(scrub.value({ reportId, ...result }), null, 2)}\n`,
        );
        const sparse = out.sparseIndex
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => scrub.line(l));
        await writeFileAtomic(abs(sparseIndexPath(job.rel)), `${sparse.join('\n')}\n`);
        results.push(result);
        const w = score.judge?.warning;
        if (w && !warned.has(w)) {
          warned.add(w);
          opts.onWarning?.(w);
        }
        const done = {
          scenarioKey: result.scenarioKey,
          agentName: result.agentName,
          run: result.run,
          runs: result.runs,
          score,
        };
        scored.push(done);
        opts.onRun?.(done);
      } finally {
        await sim?.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, Math.max(1, jobs.length)) }, worker));

  applyScores(manifest, results);
  manifest.updatedAt = new Date().toISOString();
  await writeFileAtomic(
    join(reportDir, 'report.json'),
    `${JSON.stringify(scrub.value(manifest), null, 2)}\n`,
  );
  // report.html always sits next to report.json, in step with the new scores.
  try {
    const { writeReportHtml } = await import('../report/html/write.js');
    await writeReportHtml(reportDir);
  } catch (err) {
    opts.onWarning?.(`could not rewrite report.html: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { reportId, reportDir, manifest, runs: scored, skipped };
}
