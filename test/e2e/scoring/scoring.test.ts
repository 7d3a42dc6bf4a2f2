/**
 * Scoring end to end: the real Claude Code CLI runs against the simulator, which also plays the judge
 * (its tapes' `judge` sections). Expected scores are worked out independently in this file from the
 * tapes' judge answers and the deterministic signals of the stored transcripts.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapScore } from '../../../src/scoring/calibration.js';
import { classifyInteractions } from '../../../src/scoring/classify.js';
import { groupTranscript } from '../../../src/scoring/interactions.js';
import { evaluateSignals } from '../../../src/scoring/signals/index.js';
import type { Category } from '../../../src/scoring/types.js';
import type { Transcript } from '../../../src/transcript/model.js';
import { axis, buildDist } from '../run/helpers.js';
import { expectValidReport } from '../../helpers/report-schema.js';

const T = 240_000;

// ---------------------------------------------------------------------------------------------
// The suite

const GOAL = 'AXIS judge: goal';
const ENV = 'AXIS judge: environment';
const AGENT = 'AXIS judge: agent';

const sumGoal = [
  { criterion_index: 0, score: 7, rationale: 'recovered after reading the usage error' },
  { criterion_index: 1, score: 10, rationale: 'states the sum 5' },
];
const sumEnv: Record<number, number> = { 2: 0.5, 4: 1 };
const sumAgent: Record<number, { success: number; weight: number; relevance: number }> = {
  1: { success: 1, weight: 1, relevance: 1 },
  2: { success: 0.5, weight: 1, relevance: 0.5 },
  3: { success: 1, weight: 1, relevance: 1 },
  4: { success: 1, weight: 0.9, relevance: 1 },
  5: { success: 1, weight: 1, relevance: 1 },
};
const sumNecessity = {
  score: 0.8,
  unnecessaryIds: [2],
  rationale: 'the first call could have had its arguments',
};
const doneGoal = [{ criterion_index: 0, score: 9, rationale: 'said done' }];
const doneAgent: typeof sumAgent = { 1: { success: 1, weight: 1, relevance: 1 } };
const doneNecessity = { score: 1, unnecessaryIds: [], rationale: 'needed' };

const agentAnswer = (audits: typeof sumAgent, necessity: typeof sumNecessity | typeof doneNecessity) => ({
  audits: Object.entries(audits).map(([id, a]) => ({ id: Number(id), ...a, rationale: `audit ${id}` })),
  necessity,
  patterns: [],
});
const doneTurns = [{ text: 'Done.' }];
const doneScenario = (name: string) => ({ name, prompt: 'Say done.', judge: 'The agent said done' });

const FILES: Record<string, unknown> = {
  'axis.config.json': {
    scenarios: './scenarios',
    agents: ['claude-code'],
    settings: { concurrency: 2, simulate: true, limits: { scenario: { time_minutes: 3 } } },
    judge: { provider: 'anthropic', max_retries: 1, timeout_seconds: 30 },
  },
  'fixtures/sum.mjs': `const at = process.argv.indexOf('--numbers');
if (at < 0) { process.stderr.write('error: missing --numbers a,b\\n'); process.exit(1); }
const sum = process.argv[at + 1].split(',').map(Number).reduce((a, b) => a + b, 0);
process.stdout.write('sum: ' + sum + '\\n');
`,
  'scenarios/calc/sum.json': {
    name: 'Add two numbers with a script',
    prompt: 'Use node sum.mjs to add 2 and 3 and tell me the sum.',
    setup: [{ action: 'copy', match: 'fixtures/sum.mjs', destination: '.' }],
    judge: [
      { check: 'The agent recovered from the first failure', weight: 0.3 },
      { check: 'The answer states the sum', weight: 0.2 },
    ],
    checks: [
      { name: 'the answer names 5', result_matches: '\\b5\\b' },
      { name: 'the script adds', run: 'node sum.mjs --numbers 2,3', expect_exit: 0 },
    ],
  },
  'tapes/calc/sum.json': {
    turns: [
      { text: "I'll run the script.", tools: [{ shell: 'node sum.mjs' }] },
      { text: "It needs --numbers; I'll pass 2,3.", tools: [{ shell: 'node sum.mjs --numbers 2,3' }] },
      { text: 'The sum is 5.' },
    ],
    judge: [
      { match: GOAL, answer: { grades: sumGoal } },
      {
        match: ENV,
        answer: {
          audits: Object.entries(sumEnv).map(([id, success]) => ({
            id: Number(id),
            success,
            rationale: 'env',
          })),
        },
      },
      { match: AGENT, answer: agentAnswer(sumAgent, sumNecessity) },
    ],
  },
  'scenarios/faults/garbage.json': doneScenario('Judge answers garbage once'),
  'tapes/faults/garbage.json': {
    turns: doneTurns,
    judge: [
      { match: GOAL, answer: 'I would rather not answer in JSON. 9/10!', times: 1 },
      { match: GOAL, answer: { grades: doneGoal } },
      { match: AGENT, answer: agentAnswer(doneAgent, doneNecessity) },
    ],
  },
  'scenarios/faults/rate-limit.json': doneScenario('Judge rate-limited once'),
  'tapes/faults/rate-limit.json': {
    turns: doneTurns,
    judge: [
      { match: GOAL, fault: { status: 429, times: 1 }, answer: { grades: doneGoal } },
      { match: AGENT, answer: agentAnswer(doneAgent, doneNecessity) },
    ],
  },
  'scenarios/faults/down.json': doneScenario('Judge always fails'),
  'tapes/faults/down.json': { turns: doneTurns, judge: [{ fault: { status: 500 } }] },
};

// ---------------------------------------------------------------------------------------------
// The independent computation

type Values = { success?: number; weight?: number; relevance?: number };
const severityMean = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const w = values.map((v) => 1 + 4 * (1 - v) ** 2);
  return values.reduce((s, v, i) => s + v * w[i]!, 0) / w.reduce((s, x) => s + x, 0);
};
const SUB: Record<Category, Record<string, number>> = {
  environment: { success: 0.7, speed: 0.3 },
  service: { success: 0.7, speed: 0.3 },
  agent: { success: 0.1, speed: 0.1, weight: 0.2, relevance: 0.2, necessity: 0.4 },
};

/** Dimension scores from the stored transcript's signals and the tape's answers (unambiguous signal > judge > guess). */
function expectedScores(
  transcript: Transcript,
  answers: { goal: number; env: Record<number, number>; agent: Record<number, Values>; necessity: number },
) {
  const ix = classifyInteractions(groupTranscript(transcript));
  const signals = evaluateSignals(ix);
  const signal = (id: number, signalId: string) =>
    signals.results
      .find((r) => r.meta.id === signalId)
      ?.values.find((v) => v.interactionId === id && v.value !== null);
  const pick = (id: number, signalId: string, judged: number | undefined): number | undefined => {
    const s = signal(id, signalId);
    if (s?.unambiguous) return s.value!;
    return judged ?? s?.value ?? undefined;
  };
  const dimension = (category: Category): number | null => {
    const pool = ix.filter((i) => category === 'agent' || i.categories.includes(category));
    if (pool.length === 0) return null;
    // No tool call: no decision to audit, the agent dimension is n/a.
    if (category === 'agent' && !pool.some((i) => i.type === 'tool')) return null;
    const judged = (id: number, field: keyof Values) =>
      category === 'agent' ? answers.agent[id]?.[field] : field === 'success' ? answers.env[id] : undefined;
    const values: Record<string, number | null> = {
      success: severityMean(
        pool.map((i) => pick(i.id, 'tool-success', judged(i.id, 'success'))).filter((v) => v !== undefined),
      ),
      // A failed call earns no speed credit: speed counts multiplied by the interaction's success.
      speed: severityMean(
        pool
          .map((i) => {
            const sp = signal(i.id, 'speed')?.value;
            const su = pick(i.id, 'tool-success', judged(i.id, 'success'));
            return sp == null ? undefined : su === undefined ? sp : sp * su;
          })
          .filter((v): v is number => v !== undefined),
      ),
    };
    if (category === 'agent') {
      values.weight = severityMean(
        pool.map((i) => answers.agent[i.id]?.weight).filter((v): v is number => v !== undefined),
      );
      values.relevance = severityMean(
        pool.map((i) => answers.agent[i.id]?.relevance).filter((v): v is number => v !== undefined),
      );
      values.necessity = answers.necessity;
    }
    let num = 0;
    let den = 0;
    for (const [k, w] of Object.entries(SUB[category]))
      if (values[k] !== null && values[k] !== undefined) {
        num += w * values[k]!;
        den += w;
      }
    return mapScore(num / den);
  };
  const env = dimension('environment');
  const svc = dimension('service');
  const agent = dimension('agent');
  const dims = [
    { w: 0.4, s: answers.goal },
    { w: 0.2, s: env },
    { w: 0.2, s: svc },
    { w: 0.2, s: agent },
  ].filter((d) => d.s !== null);
  const total = dims.reduce((n, d) => n + d.w, 0);
  const axisScore = Math.round(dims.reduce((n, d) => n + (d.w / total) * d.s!, 0));
  return { interactions: ix, environment: env, service: svc, agent, axisScore };
}

// ---------------------------------------------------------------------------------------------

interface Detail {
  status: string;
  transcript: Transcript;
  checks?: { label: string; passed: boolean; rationale: string }[];
  score?: Score;
}
interface Score {
  status: string;
  reason?: string;
  axisScore: number | null;
  goalAchievement: {
    score: number | null;
    criteria: { check: string; weight: number; score: number | null; rationale: string; kind: string }[];
  };
  environment: { score: number | null; dimensions: Record<string, number | null>; audits: unknown[] };
  service: { score: number | null; notApplicable: boolean };
  agent: { score: number | null; dimensions: Record<string, number | null>; audits: unknown[] };
  judge: {
    judges: {
      name: string;
      status: string;
      calls: number;
      requests: number;
      repaired: boolean;
      error?: string;
    }[];
  } | null;
}
interface Manifest {
  summary: {
    averageAxisScore?: number | null;
    scores?: { scored: number; unscored: number; failed: number; judge: { runs: number; calls: number } };
  };
  results: {
    scenarioKey: string;
    score?: Score;
    runs: { axisScore?: number | null; scoreStatus?: string }[];
  }[];
}

describe('scoring: Claude Code + simulator as agent and judge', () => {
  let dir: string;
  const reports = () => readdirSync(join(dir, '.axis/reports')).sort();
  const manifest = (id: string) =>
    JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8')) as Manifest;
  const detail = (id: string, key: string) =>
    JSON.parse(
      readFileSync(join(dir, '.axis/reports', id, 'scenarios', key, 'claude-code.json'), 'utf8'),
    ) as Detail;

  beforeAll(() => {
    buildDist();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-scoring-e2e-')));
    for (const [rel, content] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    }
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  let scoredId: string;
  let live: Record<string, Score>;

  it(
    'scores every run in the job, with the values worked out from the tape answers and the signals',
    async () => {
      const r = await axis(['run'], dir);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      [scoredId] = reports() as [string];
      const m = manifest(scoredId);
      expectValidReport(join(dir, '.axis/reports', scoredId));

      // calc/sum: goal = 0.7·0.3 + 1·0.2 + 1·0.25 + 1·0.25 = 0.91 → 91.
      const sum = detail(scoredId, 'calc/sum');
      expect(sum.checks?.map((c) => [c.label, c.passed])).toEqual([
        ['the answer names 5', true],
        ['the script adds', true],
      ]);
      const s = sum.score!;
      expect(s.goalAchievement.score).toBe(91);
      expect(s.goalAchievement.criteria.map((c) => [c.kind, c.weight, c.score])).toEqual([
        ['judge', 0.3, 7],
        ['judge', 0.2, 10],
        ['deterministic', 0.25, 10],
        ['deterministic', 0.25, 10],
      ]);
      const want = expectedScores(sum.transcript, { goal: 91, env: sumEnv, agent: sumAgent, necessity: 0.8 });
      // The tape's answers assume this shape: reasoning, failed call, reasoning, call, final answer.
      expect(want.interactions.map((i) => `${i.id}:${i.type}:${i.outcome}`)).toEqual([
        '1:reasoning:ok',
        '2:tool:error',
        '3:reasoning:ok',
        '4:tool:ok',
        '5:reasoning:ok',
      ]);
      expect(s.environment.score).toBe(want.environment);
      expect(s.service.notApplicable).toBe(true);
      expect(s.agent.score).toBe(want.agent);
      expect(s.agent.dimensions.necessity).toBe(80);
      expect(s.axisScore).toBe(want.axisScore);
      expect(s.status).toBe('scored');

      // A garbage answer is repaired; a 429 is retried: both score as the tape's answers say.
      for (const key of ['faults/garbage', 'faults/rate-limit']) {
        const d = detail(scoredId, key);
        const w = expectedScores(d.transcript, { goal: 90, env: {}, agent: doneAgent, necessity: 1 });
        expect(d.score!.status, key).toBe('scored');
        expect(d.score!.goalAchievement.score, key).toBe(90);
        expect(d.score!.agent.score, key).toBe(w.agent);
        expect(d.score!.axisScore, key).toBe(w.axisScore);
      }
      const goalJudge = (key: string) =>
        detail(scoredId, key).score!.judge!.judges.find((j) => j.name === 'goal')!;
      expect(goalJudge('faults/garbage')).toMatchObject({
        status: 'ok',
        calls: 2,
        requests: 2,
        repaired: true,
      });
      expect(goalJudge('faults/rate-limit')).toMatchObject({
        status: 'ok',
        calls: 1,
        requests: 2,
        repaired: false,
      });

      // A judge that fails forever leaves the run unscored with the reason: never a 0.
      const down = detail(scoredId, 'faults/down').score!;
      expect(down.status).toBe('unscored');
      expect(down.axisScore).toBeNull();
      expect(down.reason).toMatch(
        /goal judge failed: anthropic axis-simulated-judge \(simulator\): HTTP 500: .*\(2 attempts\)/,
      );
      // "Say done." made no tool call: no agent judge was asked (the dimension is n/a).
      expect(down.agent.score).toBeNull();

      // report.json: headline scores with the spec's field names, the average over scored runs only.
      const bykey = Object.fromEntries(m.results.map((e) => [e.scenarioKey, e]));
      expect(bykey['calc/sum']!.score!.axisScore).toBe(want.axisScore);
      expect(bykey['calc/sum']!.score!.goalAchievement.criteria[0]).toEqual({
        check: 'The agent recovered from the first failure',
        weight: 0.3,
        score: 7,
        rationale: 'recovered after reading the usage error',
        kind: 'judge',
      });
      expect(Object.keys(bykey['calc/sum']!.score!.environment.dimensions).sort()).toEqual([
        'necessity',
        'relevance',
        'speed',
        'success',
        'weight',
      ]);
      expect(bykey['faults/down']!.runs[0]).toMatchObject({ axisScore: null, scoreStatus: 'unscored' });
      const scored = ['calc/sum', 'faults/garbage', 'faults/rate-limit'].map(
        (k) => bykey[k]!.score!.axisScore!,
      );
      // Averages round down, never up (docs/scoring.md): a mean of 88.67 is 88. The scores vary with the
      // runs' timing, so a Math.round here failed whenever the mean's fraction reached .5.
      expect(m.summary.averageAxisScore).toBe(Math.floor(scored.reduce((a, b) => a + b, 0) / 3 + 1e-9));
      expect(m.summary.scores).toMatchObject({ scored: 3, unscored: 1, failed: 0 });
      expect(m.summary.scores!.judge.runs).toBe(4);

      // The sparse index sits beside each per-run file.
      const sparse = readFileSync(
        join(dir, '.axis/reports', scoredId, 'scenarios/calc/sum/claude-code.sparse-index.txt'),
        'utf8',
      );
      expect(sparse.split('\n')[0]).toBe('# Sparse Index: calc/sum / claude-code');
      expect(sparse).toContain('Bash(command: node sum.mjs');
      expect(r.stdout).toMatch(/✓ calc\/sum +claude-code +completed .*\n +AXIS \d+ · goal 91 · /);
      expect(r.stdout).toMatch(/faults\/down .*\n +unscored: goal judge failed/);
      live = Object.fromEntries(m.results.map((e) => [e.scenarioKey, e.score!]));
    },
    T,
  );

  it(
    'axis score re-scores the stored runs to the same scores',
    async () => {
      const r = await axis(['score', scoredId], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`Scored report ${scoredId}: average AXIS Result`);
      const again = manifest(scoredId);
      expectValidReport(join(dir, '.axis/reports', scoredId));
      for (const e of again.results) {
        const before = live[e.scenarioKey]!;
        expect(e.score!.status, e.scenarioKey).toBe(before.status);
        expect(e.score!.axisScore, e.scenarioKey).toBe(before.axisScore);
        expect(e.score!.goalAchievement, e.scenarioKey).toEqual(before.goalAchievement);
        expect([e.score!.environment.score, e.score!.agent.score], e.scenarioKey).toEqual([
          before.environment.score,
          before.agent.score,
        ]);
      }
    },
    T,
  );

  it(
    '--no-score writes raw results (checks included); axis score then produces the scores a scored run gives',
    async () => {
      const r = await axis(['run', '--no-score'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/AXIS \d+|unscored/);
      const id = reports().at(-1)!;
      expect(id).not.toBe(scoredId);
      const raw = manifest(id);
      expectValidReport(join(dir, '.axis/reports', id));
      expect(raw.summary.averageAxisScore).toBeUndefined();
      expect(raw.results.every((e) => e.score === undefined)).toBe(true);
      const stored = detail(id, 'calc/sum');
      expect(stored.score).toBeUndefined();
      expect(stored.checks?.every((c) => c.passed)).toBe(true);
      // The sparse index is scoring's: --no-score leaves it to `axis score` (`axis reports` derives it).
      const sparse = join(dir, '.axis/reports', id, 'scenarios/calc/sum/claude-code.sparse-index.txt');
      expect(existsSync(sparse)).toBe(false);

      const s = await axis(['score'], dir);
      expect(s.code, s.stderr).toBe(0);
      expect(existsSync(sparse)).toBe(true);
      expect(s.stdout).toContain(`Scored report ${id}`);
      const m = manifest(id);
      expectValidReport(join(dir, '.axis/reports', id));
      const bykey = Object.fromEntries(m.results.map((e) => [e.scenarioKey, e.score!]));
      for (const key of Object.keys(live)) {
        expect(bykey[key]!.status, key).toBe(live[key]!.status);
        expect(bykey[key]!.goalAchievement, key).toEqual(live[key]!.goalAchievement);
      }
      const sum = detail(id, 'calc/sum');
      const want = expectedScores(sum.transcript, { goal: 91, env: sumEnv, agent: sumAgent, necessity: 0.8 });
      expect(sum.score!.axisScore).toBe(want.axisScore);
      expect([sum.score!.environment.score, sum.score!.agent.score]).toEqual([want.environment, want.agent]);
      expect(bykey['faults/down']!.reason).toMatch(/judge failed: .*HTTP 500/);
      expect(m.summary.scores).toMatchObject({ scored: 3, unscored: 1 });
    },
    T,
  );
});
