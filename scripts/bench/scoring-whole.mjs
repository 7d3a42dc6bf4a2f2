// The whole per-run scoring (scoreRun: group → classify → sparse index → signals → four judges →
// dimensions → composite) on the synthetic ~20 MB transcript of scoring.mjs. The judge is the simulator
// over real HTTP on 127.0.0.1, answering from a tape's `judge` section. Scoring runs in a child process
// so its peak RSS is its own; the simulator stays in this process. Imports the built modules from dist/.
import { spawn } from 'node:child_process';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { JudgeCache } from '../../dist/scoring/cache.js';
import { classifyInteractions } from '../../dist/scoring/classify.js';
import { resolveScoringWeights } from '../../dist/scoring/composite.js';
import { groupTranscript } from '../../dist/scoring/interactions.js';
import { batchSize } from '../../dist/scoring/judges/batch.js';
import { MAX_SCAN_CHARS } from '../../dist/scoring/judges/extract.js';
import { ranges } from '../../dist/scoring/judges/prompt-text.js';
import { resolveJudge } from '../../dist/scoring/judges/resolve.js';
import { scoreRun } from '../../dist/scoring/pipeline.js';
import { evaluateSignals } from '../../dist/scoring/signals/index.js';
import { startSimulator } from '../../dist/sim/index.js';
import { syntheticEvents, T0 } from './scoring.mjs';

export const name = 'scoring: whole run (scoreRun, simulator judge over HTTP)';

const SELF = fileURLToPath(import.meta.url);
const WARM_RUNS = 3;
const CHILD_TIMEOUT_MS = 300_000;
/** Ids no interaction has: the tape answers them too, and scoring must ignore them. */
const GHOST_ID = 9_999_999;

const CRITERIA = [
  { kind: 'judge', index: 0, label: 'posts created', weight: 1, check: 'The posts were created in the CMS' },
  {
    kind: 'judge',
    index: 1,
    label: 'tests pass',
    weight: 1,
    check: 'The agent ran the tests and fixed failures',
  },
  {
    kind: 'check',
    index: 0,
    label: 'npm test exits 0',
    weight: 1,
    check: { kind: 'run', run: 'npm test', expect_exit: 0 },
  },
];
const CHECKS = [
  {
    index: 0,
    label: 'npm test exits 0',
    weight: 1,
    kind: 'run',
    passed: true,
    score: 10,
    rationale: 'Passed: exit code 0',
    durationMs: 1200,
  },
];

function transcriptOf(events) {
  const endedAt = events[events.length - 1].ts + 1000;
  return {
    agent: 'claude-code',
    events,
    result: 'All posts are created and the test suite passes.',
    usage: { input: 1_200_000, output: 90_000, cacheReadInput: 800_000 },
    exitCode: 0,
    startedAt: T0,
    endedAt,
    durationMs: endedAt - T0,
  };
}

function scoreInput(transcript) {
  return {
    scenarioKey: 'bench/synthetic',
    scenarioName: 'Synthetic 20 MB run',
    agentName: 'claude-code',
    prompt: 'Create the posts in the CMS, run the tests and fix what fails.',
    criteria: CRITERIA,
    status: 'completed',
    transcript,
    checks: CHECKS,
  };
}

/**
 * A complete, valid answer for every question the run raises, plus answers about ids that do not exist.
 * A long run is asked in batches; like a real judge, the tape answers each batch about the ids that batch
 * lists (one entry per batch, matched by the id list in the prompt's answer format), not about every id
 * of the run (before, each of the 67 agent batches got all 8,800 audits: 26 MB of answers to parse). The
 * batches are cut exactly as the pipeline cuts them (`batchSize`, question order), and each answer still
 * carries a ghost id the scoring must ignore.
 */
export function tapeFor(events) {
  const interactions = classifyInteractions(groupTranscript(transcriptOf(events)));
  const asked = evaluateSignals(interactions).needsJudgement;
  const ids = (category) => asked.filter((q) => q.category === category);
  const chunks = (list, size) => {
    const out = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    return out;
  };
  const categoryEntries = (category) =>
    chunks(ids(category), batchSize('category')).map((qs) => ({
      match: `(ids ${ranges(qs.map((q) => q.interactionId))}):`,
      answer: {
        audits: [
          ...qs.map((q) => ({ id: q.interactionId, success: 0.9, rationale: 'did its job' })),
          { id: GHOST_ID, success: 0, rationale: 'no such interaction' },
        ],
      },
    }));
  // No rationales and short numbers: one batch's audits stay well under the judge's MAX_SCAN_CHARS.
  const agentEntries = chunks(ids('agent'), batchSize('agent')).map((qs) => ({
    match: `Audit every id: ${ranges(qs.map((q) => q.interactionId))}. `,
    answer: {
      audits: [
        ...qs.map((q) => ({
          id: q.interactionId,
          weight: 1,
          relevance: 1,
          ...(q.fields.includes('success') ? { success: 1 } : {}),
        })),
        { id: GHOST_ID, weight: 0, relevance: 0, success: 0, rationale: 'no such interaction' },
      ],
      necessity: { score: 0.9, unnecessaryIds: [1, GHOST_ID], rationale: 'mostly needed' },
      patterns: [
        {
          kind: 'redundancy',
          description: 'reads a file twice',
          interactionIds: [1, GHOST_ID],
          severity: 'low',
        },
      ],
    },
  }));
  const questions = {
    interactions: interactions.length,
    environment: ids('environment').length,
    service: ids('service').length,
    agent: ids('agent').length,
  };
  const tape = {
    name: 'bench: whole scoring',
    turns: [],
    judge: [
      {
        match: 'AXIS judge: goal',
        answer: {
          grades: [
            { criterion_index: 0, score: 9, rationale: 'posts created' },
            { criterion_index: 1, score: 8, rationale: 'tests pass' },
            { criterion_index: 7, score: 0, rationale: 'no such criterion' },
          ],
        },
      },
      ...categoryEntries('environment'),
      ...categoryEntries('service'),
      ...agentEntries,
    ],
  };
  const answerChars = tape.judge.reduce((n, j) => n + JSON.stringify(j.answer).length, 0);
  const longest = Math.max(...tape.judge.map((j) => JSON.stringify(j.answer).length));
  if (longest > MAX_SCAN_CHARS)
    throw new Error(`a tape answer has ${longest} characters; judges read only ${MAX_SCAN_CHARS}`);
  return { tape, questions, answerChars };
}

/** Wall time covered by a set of [start, end] intervals (the judges run in parallel). */
function unionMs(spans) {
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (s > end) {
      total += e - s;
      end = e;
    } else if (e > end) {
      total += e - end;
      end = e;
    }
  }
  return total;
}

const now = () => Number(process.hrtime.bigint()) / 1e6;

/** One scoreRun with its judge calls timed at the client (request sent → answer parsed). */
async function timedScore(input, simulatorUrl) {
  const spans = [];
  const choice = await resolveJudge({
    simulatorUrl,
    agentUnderTest: { name: 'claude-code', agent: 'claude-code' },
    loadAdapter: () => Promise.reject(new Error('no adapter in the bench')),
  });
  const inner = choice.client;
  const client = {
    ...inner,
    async complete(req) {
      const start = now();
      try {
        return await inner.complete(req);
      } finally {
        spans.push([start, now()]);
      }
    },
  };
  const ctx = {
    judge: async () => ({ ...choice, client }),
    cache: new JudgeCache(null),
    weights: resolveScoringWeights(),
  };
  const start = now();
  const out = await scoreRun(input, ctx);
  const end = now();
  const firstCall = Math.min(...spans.map((s) => s[0]));
  const lastAnswer = Math.max(...spans.map((s) => s[1]));
  return {
    out,
    totalMs: end - start,
    httpWallMs: unionMs(spans),
    httpSumMs: spans.reduce((n, [s, e]) => n + (e - s), 0),
    beforeJudgeMs: spans.length > 0 ? firstCall - start : end - start,
    afterJudgeMs: spans.length > 0 ? end - lastAnswer : 0,
  };
}

/** Child process: builds the input, scores it (cold once, then warm), reports figures as JSON. */
async function child(simulatorUrl) {
  const { events, bytes } = syntheticEvents();
  const input = scoreInput(transcriptOf(events));
  const rssInputMb = process.memoryUsage().rss / 2 ** 20;
  let sampledPeak = rssInputMb;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss / 2 ** 20);
  }, 5);

  const cold = await timedScore(input, simulatorUrl);
  const warm = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push(await timedScore(input, simulatorUrl));
  clearInterval(sampler);
  sampledPeak = Math.max(sampledPeak, process.memoryUsage().rss / 2 ** 20);
  warm.sort((a, b) => a.totalMs - b.totalMs);
  const median = warm[Math.floor(warm.length / 2)];

  const { score } = cold.out;
  const j = score.judge;
  const ghostLeaked =
    (score.necessity?.unnecessaryIds ?? []).includes(GHOST_ID) ||
    score.patterns.some((p) => p.interactionIds.includes(GHOST_ID));
  const figures = {
    events: events.length,
    bytes,
    cold: strip(cold),
    warm: strip(median),
    status: score.status,
    reason: score.reason ?? null,
    axisScore: score.axisScore,
    calls: j?.calls ?? 0,
    requests: j?.requests ?? 0,
    repaired: (j?.judges ?? []).filter((r) => r.repaired).length,
    incomplete: (j?.judges ?? []).filter((r) => r.incomplete).length,
    inputChars: j?.inputChars ?? 0,
    perJudge: (j?.judges ?? []).map((r) => [r.name, r.inputChars]),
    ghostLeaked,
    rssInputMb,
    sampledPeakMb: sampledPeak,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

function strip(t) {
  const { out: _out, ...rest } = t;
  return rest;
}

function runChild(simulatorUrl) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [SELF, '--child', simulatorUrl], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c) => (out += c));
    proc.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => proc.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    proc.on('error', reject);
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`scoring child exited ${code ?? signal}: ${err.trim().slice(-500)}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch {
        reject(new Error(`scoring child printed no figures: ${out.slice(-300)}`));
      }
    });
  });
}

const ms = (v) => `${v.toFixed(0)} ms`;
const mb = (v) => `${v.toFixed(0)} MB`;
const fmt = (n) => n.toLocaleString('en-US');

export default async function bench() {
  const { tape, questions, answerChars } = tapeFor(syntheticEvents().events);
  const sim = await startSimulator({ tape });
  let f;
  try {
    f = await runChild(sim.url);
  } finally {
    await sim.close();
  }
  const judged = sim.requests.filter((r) => r.answer?.kind === 'judge');
  const serverMs = judged.reduce((n, r) => n + (r.durationMs ?? 0), 0);

  if (f.status !== 'scored') throw new Error(`the run was ${f.status}: ${f.reason}`);
  if (f.ghostLeaked) throw new Error('answers about interactions that do not exist reached the score');

  const split = (t) =>
    `${ms(t.beforeJudgeMs)} + ${ms(t.httpWallMs)} + ${ms(t.afterJudgeMs)}`.replace(/ ms(?= \+)/g, '');
  return [
    {
      label: 'synthetic transcript (events, JSON size)',
      value: `${f.events} / ${(f.bytes / 2 ** 20).toFixed(1)} MB`,
    },
    {
      label: 'interactions; asked: environment / service / agent',
      value: `${questions.interactions}; ${questions.environment} / ${questions.service} / ${questions.agent}`,
    },
    { label: 'whole scoring, first run (cold)', value: ms(f.cold.totalMs) },
    { label: `whole scoring, median of ${WARM_RUNS} warm runs`, value: ms(f.warm.totalMs) },
    { label: '  cold: to first judge call + judge HTTP (wall) + after', value: split(f.cold) },
    { label: '  warm: to first judge call + judge HTTP (wall) + after', value: split(f.warm) },
    {
      label: '  judge HTTP summed over the parallel calls (warm)',
      value: ms(f.warm.httpSumMs),
    },
    {
      label: `  simulator time answering (all ${judged.length} judge requests)`,
      value: ms(serverMs),
    },
    {
      label: 'judge calls / HTTP requests / repaired, per run',
      value: `${f.calls} / ${f.requests} / ${f.repaired}`,
    },
    { label: 'judge input characters (all four judges)', value: fmt(f.inputChars) },
    { label: 'judge answer characters (all four judges)', value: fmt(answerChars) },
    { label: '  per judge', value: f.perJudge.map(([n, c]) => `${n} ${fmt(c)}`).join(', ') },
    { label: 'result (status, AXIS score)', value: `${f.status} ${f.axisScore}` },
    { label: 'RSS once the synthetic input is built', value: mb(f.rssInputMb) },
    { label: 'peak RSS, sampled every 5 ms while scoring', value: mb(f.sampledPeakMb) },
    { label: 'peak RSS of the scoring process (maxRSS)', value: mb(f.maxRssMb) },
  ];
}

if (process.argv[1] === SELF && process.argv[2] === '--child') {
  await child(process.argv[3]);
}
