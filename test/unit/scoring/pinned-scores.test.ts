/**
 * Scores pinned on representative transcripts: the labelled set, the real CLI samples and a synthetic
 * run large enough to be judged in several batches with failures in every batch. The judge answers
 * deterministically from the ids a prompt asks about (never from the rest of its text), so prompt
 * wording and batching may change while the score must not. The pinned values live in
 * pinned-scores.json; a change to them is a change to scoring, never an optimisation
 * (AXIS_PIN_WRITE=1 rewrites the file, for a deliberate scoring change only).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Criterion } from '../../../src/config/types.js';
import { JudgeCache } from '../../../src/scoring/cache.js';
import { resolveScoringWeights } from '../../../src/scoring/composite.js';
import { MARKERS } from '../../../src/scoring/judges/prompts.js';
import type { JudgeClient, JudgeRequest } from '../../../src/scoring/judges/types.js';
import { scoreRun } from '../../../src/scoring/pipeline.js';
import type { RunScore } from '../../../src/scoring/types.js';
import { parseAll, parserFor } from '../../../src/transcript/index.js';
import type { TranscriptEvent } from '../../../src/transcript/model.js';

const PINS = new URL('./pinned-scores.json', import.meta.url);
const fixture = (dir: string, file: string) =>
  readFileSync(new URL(`../../fixtures/${dir}/${file}`, import.meta.url), 'utf8');

/** `1-5, 8, 10, 11` → [1, 2, 3, 4, 5, 8, 10, 11]. */
function idsOf(ranges: string): number[] {
  const out: number[] = [];
  for (const part of ranges.split(',').map((s) => s.trim()))
    if (/^\d+-\d+$/.test(part)) {
      const [a, b] = part.split('-').map(Number) as [number, number];
      for (let i = a; i <= b; i++) out.push(i);
    } else if (/^\d+$/.test(part)) out.push(Number(part));
  return out;
}
const frac = (id: number, salt: number) => ((id * 37 + salt * 11) % 11) / 10;

/**
 * A judge whose every verdict is a function of the ids asked about. `extra`: it also audits, first and
 * with zeros, every id up to that number it was not asked about (AXIS must ignore those).
 */
function idJudge(extra = 0): JudgeClient {
  const answer = (prompt: string): unknown => {
    if (prompt.startsWith(MARKERS.goal)) {
      const n = (prompt.split('## Criteria\n')[1] ?? '').split('\n').filter((l) => /^\d+\. /.test(l)).length;
      return {
        grades: Array.from({ length: n }, (_, i) => ({ criterion_index: i, score: 4 + i, rationale: 'r' })),
      };
    }
    if (prompt.startsWith(MARKERS.agent)) {
      const ids = idsOf(/Audit every id: ([\d, -]+)\./.exec(prompt)![1]!);
      const success = new Set(idsOf(/Include "success" for ids ([\d, -]+) and/.exec(prompt)?.[1] ?? ''));
      const asked = new Set(ids);
      const others = Array.from({ length: extra }, (_, i) => i + 1).filter((i) => !asked.has(i));
      return {
        audits: [
          ...others.map((id) => ({ id, weight: 0, relevance: 0, success: 0, rationale: 'not asked' })),
          ...ids.map((id) => ({
            id,
            weight: frac(id, 1),
            relevance: frac(id, 2),
            ...(success.has(id) ? { success: frac(id, 3) } : {}),
            rationale: `a${id}`,
          })),
        ],
        necessity: { score: 0.8, unnecessaryIds: ids.filter((i) => i % 9 === 0), rationale: 'n' },
        patterns: ids.some((i) => i % 50 === 0)
          ? [{ kind: 'waste', description: 'w', interactionIds: ids.filter((i) => i % 50 === 0) }]
          : [],
      };
    }
    const ids = idsOf(/one audit per interaction listed \(ids ([\d, -]+)\)/.exec(prompt)![1]!);
    return { audits: ids.map((id) => ({ id, success: frac(id, 4), rationale: `c${id}` })) };
  };
  return {
    provider: 'anthropic',
    model: 'pin',
    label: 'pin judge',
    cacheId: null,
    complete: async (req: JudgeRequest) => ({
      text: JSON.stringify(answer(req.messages[0]!.content)),
      model: 'pin',
      usage: { input: 1, output: 1 },
      attempts: 1,
    }),
  };
}

/** A synthetic run of `n` steps: reasoning, then a read, a test run (every 7th fails) or an HTTP call. */
function syntheticNdjson(n: number): string {
  const lines: unknown[] = [];
  let ts = 1_796_000_000_000;
  for (let i = 0; i < n; i++) {
    lines.push({ type: 'thinking', text: `step ${i}: ${'plan '.repeat(i % 13)}`, ts: (ts += 300) });
    const id = `c${i}`;
    if (i % 3 === 0) {
      lines.push({
        type: 'tool_call',
        id,
        name: 'Read',
        input: { file_path: `src/m${i % 40}.ts` },
        ts: (ts += 5),
      });
      lines.push({
        type: 'tool_result',
        id,
        output: `export const m = ${i};\n`.repeat(i % 9),
        ts: (ts += 40),
      });
    } else if (i % 3 === 1) {
      const fails = i % 7 === 0;
      lines.push({
        type: 'tool_call',
        id,
        name: 'Bash',
        input: { command: `npm test -- ${i}` },
        ts: (ts += 5),
      });
      lines.push({
        type: 'tool_result',
        id,
        output: fails ? `1 failing\n${'at x.test.ts\n'.repeat(200)}` : 'ok',
        exit_code: fails ? 1 : 0,
        is_error: fails,
        ts: (ts += 900),
      });
    } else {
      lines.push({
        type: 'tool_call',
        id,
        name: 'WebFetch',
        input: { url: `https://api.example.com/items/${i}` },
        ts: (ts += 5),
      });
      lines.push({
        type: 'tool_result',
        id,
        output: i % 11 === 0 ? 'HTTP 503' : '{"ok":true}',
        ts: (ts += 200),
      });
    }
  }
  lines.push({ type: 'usage', input: 50_000, output: 4_000 });
  lines.push({ type: 'result', text: 'Done.' });
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

const criteria: Criterion[] = [
  { kind: 'judge', index: 0, label: 'Did it', weight: 0.6, check: 'The agent did the task' },
  { kind: 'judge', index: 1, label: 'Said so', weight: 0.4, check: 'The agent said what it did' },
];

async function scoreOf(text: string, format: string, judge = idJudge()): Promise<unknown> {
  const parsed = parseAll(parserFor(format), text, 1_796_000_000_000);
  const events: TranscriptEvent[] = parsed.events;
  const { score, sparseIndex } = await scoreRun(
    {
      scenarioKey: 'pin',
      scenarioName: 'Pinned',
      agentName: format,
      prompt: 'Create notes.md with a summary of the repository.',
      criteria,
      status: 'completed',
      transcript: {
        ...parsed,
        agent: format,
        exitCode: 0,
        startedAt: 1_796_000_000_000,
        endedAt: 1_796_000_100_000,
        durationMs: 100_000,
      },
    },
    {
      judge: async () => ({ client: judge }),
      cache: new JudgeCache(null),
      weights: resolveScoringWeights(undefined),
    },
  );
  const full = JSON.stringify(pinned(score));
  const dim = (d: RunScore['agent']) => ({ score: d.score, raw: d.raw, ...d.dimensions });
  return {
    events: events.length,
    status: score.status,
    axis: score.axisScore,
    goal: score.goalAchievement.score,
    environment: dim(score.environment),
    service: dim(score.service),
    agent: dim(score.agent),
    necessity: score.necessity?.score ?? null,
    patterns: score.patterns.length,
    judgeCalls: score.judge?.calls ?? 0,
    // Everything else (every audit, rationale, pattern, criterion): one digest.
    sha256: createHash('sha256').update(full).digest('hex'),
    sparseIndexSha256: createHash('sha256').update(sparseIndex).digest('hex'),
  };
}

/** The score without what depends on prompt size (characters and tokens sent). */
function pinned(score: RunScore): unknown {
  const { judge, ...rest } = score;
  return {
    ...rest,
    judge: judge && {
      calls: judge.calls,
      requests: judge.requests,
      judges: judge.judges.map((j) => ({ name: j.name, status: j.status, calls: j.calls })),
    },
  };
}

const cases: Array<[string, () => string, string]> = [
  ...readdirSync(new URL('../../fixtures/scoring-set/', import.meta.url))
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .map((f): [string, () => string, string] => [f, () => fixture('scoring-set', f), 'ndjson']),
  ...(
    [
      ['claude-stream.ndjson', 'claude'],
      ['claude-stream-failed-command.ndjson', 'claude'],
      ['codex-exec.ndjson', 'codex'],
      ['gemini-stream-failed-command.ndjson', 'gemini'],
      ['qwen-stream.ndjson', 'qwen'],
      ['opencode-run.ndjson', 'opencode'],
    ] as const
  ).map(([f, format]): [string, () => string, string] => [f, () => fixture('agent-cli-samples', f), format]),
  ['synthetic, 700 steps (several judge batches)', () => syntheticNdjson(700), 'ndjson'],
];

describe('pinned scores', () => {
  it('every representative transcript scores exactly as pinned', async () => {
    const got: Record<string, unknown> = {};
    for (const [name, text, format] of cases) got[name] = await scoreOf(text(), format);
    if (process.env.AXIS_PIN_WRITE === '1') writeFileSync(PINS, `${JSON.stringify(got, null, 2)}\n`);
    const want = JSON.parse(readFileSync(PINS, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(got)).toEqual(Object.keys(want));
    for (const name of Object.keys(want)) expect(got[name], name).toEqual(want[name]);
  });
});

describe('audits a judge was not asked for', () => {
  it("are ignored: a batch auditing other batches' ids too scores as if it had not", async () => {
    const [name, text, format] = cases.at(-1)!;
    const want = (JSON.parse(readFileSync(PINS, 'utf8')) as Record<string, unknown>)[name];
    expect(await scoreOf(text(), format, idJudge(2_100))).toEqual(want);
  });
});
