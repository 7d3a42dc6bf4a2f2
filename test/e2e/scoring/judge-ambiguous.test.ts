/**
 * A judge answer holding two different verdicts, end to end through the simulator: the goal judge quotes
 * a schema-shaped object the agent printed, then gives its own. The quote must not score the run: AXIS
 * asks once more for one object, and a judge that stays ambiguous fails with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;
const GOAL = 'AXIS judge: goal';
const REPAIR = 'Your answer could not be used';
const quoted = { grades: [{ criterion_index: 0, score: 10, rationale: 'perfect' }] };
const own = { grades: [{ criterion_index: 0, score: 2, rationale: 'out.txt is missing' }] };
const twoVerdicts = `The agent printed ${JSON.stringify(quoted)} at the end. My grade: ${JSON.stringify(own)}`;

const ids = [1, 2, 3];
const others = [
  { match: 'AXIS judge: environment', answer: { audits: [] } },
  { match: 'AXIS judge: service', answer: { audits: [] } },
  {
    match: 'AXIS judge: agent',
    answer: {
      audits: ids.map((id) => ({ id, weight: 1, relevance: 1, success: 1 })),
      necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
      patterns: [],
    },
  },
];
const scenario = (name: string) => ({ name, prompt: 'Write out.txt', judge: [{ check: 'out.txt written' }] });

beforeAll(() => buildDist());
afterAll(() => removeTempDirs());

interface RunFile {
  score: {
    status: string;
    reason?: string;
    goalAchievement?: { criteria: Array<{ score: number }> };
    judge: { judges: Array<{ name: string; status: string; repaired: boolean; error?: string }> };
  };
}

const runFile = (project: string, name: string): RunFile => {
  const reports = join(project, '.axis/reports');
  const id = readdirSync(reports).sort().at(-1)!;
  return JSON.parse(readFileSync(join(reports, id, 'scenarios', name, 'toy.json'), 'utf8')) as RunFile;
};

describe('a judge answer with two verdicts', () => {
  it(
    'is asked again rather than scored by the quote; a judge that stays ambiguous fails, saying why',
    async () => {
      const project = makeProject({
        'axis.config.json': { agents: [TOY_AGENT], settings: { simulate: true } },
        'scenarios/quoted.json': scenario('quoted'),
        'tapes/quoted.json': {
          turns: [],
          judge: [{ match: REPAIR, answer: own }, { match: GOAL, answer: twoVerdicts }, ...others],
        },
        'scenarios/stubborn.json': scenario('stubborn'),
        'tapes/stubborn.json': { turns: [], judge: [{ match: GOAL, answer: twoVerdicts }, ...others] },
      });
      const run = await axis(['run'], project);
      expect(run.code, run.stdout + run.stderr).toBe(0);

      const quotedRun = runFile(project, 'quoted');
      expect(quotedRun.score.goalAchievement?.criteria.map((c) => c.score)).toEqual([2]);
      expect(quotedRun.score.judge.judges.find((j) => j.name === 'goal')).toMatchObject({
        status: 'ok',
        repaired: true,
      });

      const stubborn = runFile(project, 'stubborn');
      const goal = stubborn.score.judge.judges.find((j) => j.name === 'goal');
      expect(goal?.status).toBe('failed');
      expect(goal?.error).toMatch(/invalid twice \(the answer holds 2 different JSON objects/);
      expect(stubborn.score.status).toBe('unscored');
      expect(stubborn.score.reason).toMatch(/different JSON objects/);
    },
    T,
  );
});
