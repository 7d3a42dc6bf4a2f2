/**
 * Synthetic reports for the `axis reports` tests, written through the real store (ReportStore,
 * buildManifest) so the files have exactly the shape a run leaves: a scored pair with an `n/a`
 * dimension and weak spots, an unscored pair, a crashed pair, and a pair with three runs.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildManifest } from '../../../src/report/build-manifest.js';
import type { ReportManifest } from '../../../src/report/manifest.js';
import { ReportStore } from '../../../src/report/store.js';
import { runFiles } from '../../../src/report/locate.js';
import type { JobResult } from '../../../src/report/job-result.js';
import type { JobStatus } from '../../../src/transcript/model.js';
import type { RunScore } from '../../../src/scoring/types.js';
import { failedScore } from '../../../src/scoring/composite.js';
import type { Audit, DimensionScore, SubScores } from '../../../src/scoring/types.js';

const dirs: string[] = [];

export function tempProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-reports-test-')));
  dirs.push(dir);
  return dir;
}

export function removeProjects(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

const NO_SUBS: SubScores = { success: null, speed: null, weight: null, relevance: null, necessity: null };

export function dim(
  score: number | null,
  subs: Partial<SubScores> = {},
  audits: Audit[] = [],
  notApplicable = false,
): DimensionScore {
  return {
    score: notApplicable ? null : score,
    notApplicable,
    raw: score === null || notApplicable ? null : score / 100,
    dimensions: { ...NO_SUBS, ...subs },
    audits,
    interactionCount: audits.length,
    auditedCount: audits.length,
    judgedCount: audits.filter((a) => a.source === 'judge').length,
  };
}

const WEIGHTS = { goal_achievement: 0.4, environment: 0.2, service: 0.2, agent: 0.2 };

/** A scored run: goal 60 (one weak check), env 92, service n/a, agent 70 (necessity 40). */
export function scoredRun(axisScore = 72): RunScore {
  return {
    status: 'scored',
    axisScore,
    goalAchievement: {
      score: 60,
      notApplicable: false,
      criteria: [
        {
          check: 'The post is published',
          weight: 0.5,
          score: 9,
          rationale: 'published at /posts/1',
          kind: 'judge',
        },
        {
          check: 'The summary names the post id',
          weight: 0.5,
          score: 3,
          rationale: 'the id was never mentioned\n\u001b[31mred\u001b[0m',
          kind: 'judge',
        },
      ],
    },
    environment: dim(92, { success: 95, speed: 80 }, [
      {
        interactionId: 2,
        category: 'environment',
        success: 1,
        speed: 1,
        rationale: 'ls ok',
        source: 'signal',
      },
      {
        interactionId: 3,
        category: 'environment',
        success: 0.5,
        speed: 1,
        rationale: 'curl failed once',
        source: 'judge',
      },
    ]),
    service: dim(null, {}, [], true),
    agent: dim(70, { success: 100, speed: 100, weight: 90, relevance: 85, necessity: 40 }, [
      {
        interactionId: 3,
        category: 'agent',
        weight: 1,
        relevance: 0.4,
        rationale: 'retried the same call',
        source: 'judge',
      },
    ]),
    weights: { goal_achievement: 0.5, environment: 0.25, service: 0, agent: 0.25 },
    configuredWeights: WEIGHTS,
    notApplicable: ['service'],
    patterns: [],
    necessity: { score: 0.4, unnecessaryIds: [3], rationale: 'the retry was not needed' },
    judge: {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      label: 'anthropic claude-sonnet-4-5',
      calls: 2,
      requests: 2,
      cached: 0,
      tokens: { input: 1000, output: 200 },
      costUsd: 0.01,
      inputChars: 4000,
      judges: [
        {
          name: 'goal',
          status: 'ok',
          calls: 1,
          requests: 1,
          repaired: false,
          inputChars: 2000,
          tokens: { input: 500, output: 100 },
          costUsd: 0.005,
          model: 'claude-sonnet-4-5',
        },
      ],
    },
  };
}

export function unscoredRun(): RunScore {
  const s = scoredRun();
  return {
    ...s,
    status: 'unscored',
    reason: 'goal judge failed: HTTP 529: Overloaded (4 attempts)',
    axisScore: null,
    goalAchievement: { ...s.goalAchievement, score: null, unscoredReason: 'judge failed' },
  };
}

export interface PairSpec {
  key: string;
  agent: string;
  status?: JobStatus;
  reason?: string;
  runs?: { score?: RunScore; status?: JobStatus }[];
  score?: RunScore;
  costUsd?: number;
  notes?: string;
  simulator?: JobResult['simulator'];
}

let index = 0;

function jobResult(p: PairSpec, run: number, runs: number): JobResult {
  const r = p.runs?.[run - 1];
  const status = r?.status ?? p.status ?? 'completed';
  const files = runFiles(p.key, p.agent, run, runs);
  return {
    index: index++,
    scenarioKey: p.key,
    scenarioBaseKey: p.key.split('@')[0]!,
    scenarioName: `Scenario ${p.key}`,
    ...(p.key.includes('@') ? { variant: p.key.split('@')[1]! } : {}),
    agentName: p.agent,
    agent: { name: p.agent, agent: p.agent.split('|')[0]!, flags: {}, env: {}, skills: [], args: [] },
    run,
    runs,
    prompt: 'Publish a post',
    criteria: [
      {
        kind: 'judge',
        index: 0,
        label: 'The post is published',
        weight: 0.5,
        check: 'The post is published',
      },
      {
        kind: 'check',
        index: 0,
        label: 'post.md exists',
        weight: 0.5,
        check: { kind: 'file_exists', file: 'post.md', exists: true },
      },
    ],
    limits: { time_minutes: 15 },
    status,
    ...(status !== 'completed' ? { reason: p.reason ?? 'agent crashed', errorClass: 'crash' as const } : {}),
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:02.000Z',
    durationMs: 1500 + run * 100,
    timings: { setupMs: 10, agentMs: 1400, afterAgentMs: 50, teardownMs: 40 },
    transcript: {
      agent: p.agent,
      events: [
        { kind: 'user', text: 'Publish a post' },
        { kind: 'tool_call', id: 'c1', name: 'Bash', input: { command: 'ls' } },
        { kind: 'tool_result', callId: 'c1', output: 'post.md', isError: false, exitCode: 0 },
        { kind: 'text', text: 'Published.' },
      ],
      result: status === 'completed' ? 'Published the post.' : null,
      usage: { input: 1000, output: 200, cacheReadInput: 50 },
      ...(p.costUsd !== undefined ? { costUsd: p.costUsd } : {}),
      exitCode: status === 'completed' ? 0 : 3,
      startedAt: 0,
      endedAt: 1400,
      durationMs: 1400,
    },
    rawLineCount: 4,
    ...(p.notes ? { setupNotes: p.notes } : {}),
    ...(p.simulator ? { simulator: p.simulator } : {}),
    artifacts: [
      { path: 'post.md', size: 12, mimeType: 'text/markdown' },
      {
        path: 'big.bin',
        size: 99_000_000,
        mimeType: 'application/octet-stream',
        skipped: 'over the 5 MiB limit',
      },
    ],
    files: { detail: files.detail, raw: files.raw, artifactsDir: files.artifactsDir },
    checks: [
      {
        index: 0,
        label: 'post.md exists',
        weight: 0.5,
        kind: 'file_exists',
        passed: true,
        score: 10,
        rationale: 'Passed: post.md exists (12 bytes)',
        durationMs: 1,
      },
    ],
    ...(r?.score ? { score: r.score } : p.score ? { score: p.score } : {}),
  };
}

/** Writes a report with the given pairs under `<project>/.axis/reports/` and returns its manifest. */
export async function writeReport(
  project: string,
  startedAt: Date,
  pairs: PairSpec[],
  extra: { incomplete?: boolean; incompleteReason?: string; name?: string } = {},
): Promise<ReportManifest> {
  const store = await ReportStore.create({ configDir: project, startedAt, secrets: [] });
  const results: JobResult[] = [];
  for (const p of pairs) {
    const runs = p.runs?.length ?? 1;
    for (let run = 1; run <= runs; run++) {
      const r = jobResult(p, run, runs);
      results.push(r);
      await store.writeJson(r.files!.detail!, { reportId: store.id, ...r });
      await store.writeLines(r.files!.raw!, ['{"type":"text","text":"Published."}']);
      await store.writeLines(r.files!.detail!.replace(/\.json$/, '.sparse-index.txt'), [
        `# Sparse Index: ${p.key} / ${p.agent}`,
        '# 2 interactions | env: 1 | svc: 0 | agent: 1 | errors: 0 | unclassified: 0',
        '#1    env         tool      Bash(command: ls) -> ok 12B 5ms',
        '#2    agent       reasoning "Published." -> ok 10B -',
      ]);
      mkdirSync(store.abs(r.files!.artifactsDir!), { recursive: true });
    }
  }
  const manifest = buildManifest({
    reportId: store.id,
    ...(extra.name ? { name: extra.name } : {}),
    startedAt,
    now: new Date(startedAt.getTime() + 9_000),
    incomplete: extra.incomplete ?? false,
    ...(extra.incompleteReason ? { incompleteReason: extra.incompleteReason } : {}),
    config: 'axis.config.json',
    settings: { concurrency: 2, runs: 1, simulate: false },
    results,
    skippedScenarios: [],
  });
  await store.writeManifest(manifest);
  return manifest;
}

/** A crashed run's score (what scoring records for a run that did not complete). */
export function crashedScore(reason: string): RunScore {
  return { ...failedScore(reason, { weights: WEIGHTS }), judge: null };
}

/** Three pairs: scored, unscored, crashed. */
export function mixedPairs(): PairSpec[] {
  return [
    {
      key: 'cms/post',
      agent: 'claude-code',
      score: scoredRun(),
      costUsd: 0.25,
      notes: '## Seeded\n- 3 posts',
    },
    { key: 'cms/post', agent: 'codex|gpt-5', score: unscoredRun(), costUsd: 0.5 },
    {
      key: 'hello',
      agent: 'claude-code',
      status: 'failed',
      reason: 'command agent "claude-code" exited with code 3: fatal: boom',
      score: crashedScore('exited with code 3'),
    },
  ];
}
