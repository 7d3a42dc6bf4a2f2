/**
 * The judges' cost total end to end: when some judged runs report no cost, `axis run`'s summary,
 * `axis reports <id>` and `axis score` say the sum is partial, in the words of src/report/cost-total.ts;
 * a simulator judge keeps its line without a cost.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, writeIn } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;

/** A judge agent in AXIS NDJSON: it reports a cost only when its prompt mentions COSTLY. */
const JUDGE = `import { readFileSync } from 'node:fs';
const prompt = readFileSync('AXIS_JUDGE_PROMPT.md', 'utf8');
const answer = prompt.includes('AXIS judge: goal')
  ? { grades: [{ criterion_index: 0, score: 9, rationale: 'done' }] }
  : { audits: [], necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' }, patterns: [] };
const cost = prompt.includes('COSTLY') ? { cost_usd: 0.0125 } : {};
console.log(JSON.stringify({ type: 'usage', input: 100, output: 10, ...cost }));
console.log(JSON.stringify({ type: 'result', text: JSON.stringify(answer) }));
`;

beforeAll(() => buildDist());
afterAll(() => removeTempDirs());

const judgeTotals = (project: string) => {
  const reports = join(project, '.axis/reports');
  const id = readdirSync(reports).sort().at(-1)!;
  const m = JSON.parse(readFileSync(join(reports, id, 'report.json'), 'utf8')) as {
    summary: { scores: { judge: { runs: number; costUsd?: number; runsWithoutCost?: number } } };
  };
  return { id, judge: m.summary.scores.judge };
};

describe('judge cost totals', () => {
  it(
    'one judged run with a cost, one without: every view says the total leaves a run out',
    async () => {
      const project = makeProject({
        'judge.mjs': JUDGE,
        'scenarios/paid.json': { name: 'Paid', prompt: 'go', judge: [{ check: 'COSTLY: said done' }] },
        'scenarios/free.json': { name: 'Free', prompt: 'go', judge: [{ check: 'said done' }] },
      });
      const judgeAgent = { agent: 'command', name: 'judge', output: 'ndjson' };
      writeIn(project, 'axis.config.json', {
        agents: [{ agent: 'command', name: 'a', command: 'sh', args: ['-c', 'echo done'] }],
        settings: { simulate: false },
        judge: {
          provider: 'agent',
          agent: { ...judgeAgent, command: process.execPath, args: [join(project, 'judge.mjs')] },
        },
      });
      const partial = /judge[^\n]*≥ \$0\.\d{4} \(1 of 2 runs without a cost\)/;
      const run = await axis(['run'], project);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(partial);

      const { id, judge } = judgeTotals(project);
      expect(judge).toMatchObject({ runs: 2, runsWithoutCost: 1 });
      const amount = `≥ $${judge.costUsd!.toFixed(4)} (1 of 2 runs without a cost)`;
      expect(run.stdout).toContain(amount);

      const shown = await axis(['reports', id], project);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(/Judge +[^\n]*/);
      expect(shown.stdout.match(/Judge +[^\n]*/)![0]).toContain(amount);

      const rescored = await axis(['score', '--no-cache'], project);
      expect(rescored.code, rescored.stdout + rescored.stderr).toBe(0);
      expect(rescored.stdout).toMatch(/\nJudge [^\n]*/);
      expect(rescored.stdout.match(/\nJudge [^\n]*/)![0]).toContain(amount);
      expect(judgeTotals(project).judge).toMatchObject({ runs: 2, runsWithoutCost: 1 });
    },
    T,
  );

  it(
    'a simulator judge has no real cost: its line shows none and no run is said to be without one',
    async () => {
      const ids = [1, 2, 3];
      const audits = ids.map((id) => ({ id, success: 1, rationale: 'fine' }));
      const project = makeProject({
        'axis.config.json': { agents: [TOY_AGENT], settings: { simulate: true } },
        'scenarios/write.json': {
          name: 'Write',
          prompt: 'Write out.txt',
          judge: [{ check: 'out.txt written' }],
        },
        'tapes/write.json': {
          name: 'write',
          turns: [],
          judge: [
            {
              match: 'AXIS judge: goal',
              answer: { grades: [{ criterion_index: 0, score: 9, rationale: 'ok' }] },
            },
            { match: 'AXIS judge: environment', answer: { audits } },
            { match: 'AXIS judge: service', answer: { audits } },
            {
              match: 'AXIS judge: agent',
              answer: {
                audits: ids.map((id) => ({ id, weight: 1, relevance: 1, success: 1 })),
                necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
                patterns: [],
              },
            },
          ],
        },
      });
      const run = await axis(['run'], project);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const line = run.stdout.match(/judge [^\n]*\(simulator\)[^\n]*/)?.[0];
      expect(line, run.stdout).toMatch(/tokens$/);
      const { id, judge } = judgeTotals(project);
      expect(judge).not.toHaveProperty('costUsd');
      expect(judge).not.toHaveProperty('runsWithoutCost');
      const shown = await axis(['reports', id], project);
      expect(shown.stdout.match(/Judge +[^\n]*/)![0]).toMatch(/tokens$/);
    },
    T,
  );
});
