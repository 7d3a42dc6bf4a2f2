// Why a short scored job costs AXIS milliseconds: the same `scoreRun` (the runner bench's fixed
// transcript, an instant in-process judge, no cache) timed three ways in one process. Back to back, its
// code stays hot; with unrelated work between two calls (serializing, parsing and mapping a few
// thousand objects, as the jobs around it do in a run), it runs cold; five calls started together
// after the same work share one warm-up. A minor GC is forced before each timed call, so no collection
// is counted in it. No target: it explains docs/performance.md's per-job figures.
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { JudgeCache } from '../../dist/scoring/cache.js';
import { resolveScoringWeights } from '../../dist/scoring/composite.js';
import { scoreRun } from '../../dist/scoring/pipeline.js';
import { parserFor } from '../../dist/transcript/registry.js';
import { fixedTranscript, median } from './lib/measure.mjs';

export const name = 'scoring: one short job’s scoreRun, hot in a loop and cold between other work';

const CALLS = 300;
const BATCH = 5;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const ANSWERS = {
  'AXIS judge: goal': { grades: [{ criterion_index: 0, score: 9, rationale: 'named it' }] },
  'AXIS judge: agent': {
    audits: [1, 2, 3, 4].map((id) => ({ id, weight: 1, relevance: 1, success: 1 })),
    necessity: { score: 1, unnecessaryIds: [], rationale: 'all needed' },
    patterns: [],
  },
};

/** A judge that answers at once, from the prompt's marker. */
const client = {
  provider: 'anthropic',
  model: 'instant',
  label: 'instant judge',
  cacheId: null,
  async complete(req) {
    const prompt = req.messages[0].content;
    const marker = Object.keys(ANSWERS).find((m) => prompt.includes(m));
    return {
      text: JSON.stringify(marker ? ANSWERS[marker] : {}),
      model: 'instant',
      usage: { input: 1, output: 1 },
      attempts: 1,
    };
  },
};

function input() {
  const parser = parserFor('ndjson');
  for (const line of fixedTranscript().split('\n')) if (line) parser.push(line);
  const t = parser.finish();
  return {
    scenarioKey: 's0000',
    scenarioName: 'S0000',
    agentName: 'fixed-1',
    prompt: 'Describe the project.',
    criteria: [{ kind: 'judge', index: 0, label: 'named it', weight: 1, check: 'It named the package' }],
    status: 'completed',
    transcript: { ...t, result: t.result ?? 'Done', startedAt: 1e12, endedAt: 1e12 + 5000 },
    checks: [],
  };
}

const ctx = {
  judge: async () => ({ client }),
  cache: new JudgeCache(null),
  weights: resolveScoringWeights(),
};

/** Other work of the kind the jobs around a job's scoring do. */
const others = Array.from({ length: 3000 }, (_, i) => ({
  id: i,
  name: `n${i}`,
  tags: ['a', 'b', String(i)],
  nested: { x: i * 1.5, y: 'y'.repeat(i % 50) },
}));
async function otherWork() {
  const text = JSON.stringify(others);
  JSON.parse(text);
  text.replace(/n(\d+)/g, 'm$1');
  new Map(others.map((o) => [o.name, o]));
  await new Promise((resolve) => setImmediate(resolve));
}

/** Milliseconds per call of `batch` calls started together, `rounds` times, `between` run before each. */
async function perCall(rounds, batch, between) {
  const times = [];
  for (let r = 0; r < rounds; r++) {
    if (between) await between();
    const inputs = Array.from({ length: batch }, input);
    gc({ type: 'minor' });
    const start = performance.now();
    const outs = await Promise.all(inputs.map((x) => scoreRun(x, ctx)));
    times.push((performance.now() - start) / batch);
    if (outs.some((o) => o.score.status !== 'scored')) throw new Error('a run was not scored');
  }
  return median(times);
}

export default async function bench() {
  await perCall(CALLS, 1); // warm-up: every tier compiled
  const hot = await perCall(CALLS, 1);
  const cold = await perCall(CALLS, 1, otherWork);
  const together = await perCall(CALLS / BATCH, BATCH, otherWork);
  return [
    { label: 'scoreRun per call, back to back (median)', value: `${hot.toFixed(3)} ms` },
    { label: 'the same, with other work between calls', value: `${cold.toFixed(3)} ms` },
    {
      label: `${BATCH} calls started together after that work, per call`,
      value: `${together.toFixed(3)} ms`,
    },
    { label: 'cold ÷ back to back', value: `${(cold / hot).toFixed(2)}×` },
  ];
}
