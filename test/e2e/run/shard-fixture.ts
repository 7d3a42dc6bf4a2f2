/**
 * The suite the sharding e2e tests run: two scripted `command` agents × three scenarios, judged by the
 * simulator from each scenario's tape. Shared by shard.test.ts and shard-gate.test.ts.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { makeProject, readJson } from '../../unit/run/helpers.js';

export const AGENT_T0 = 1767225600000;

/** Answers from the last argument (its name) and the run number setup wrote to `.run`; fixed timestamps. */
export const AGENT = `import { readFileSync } from 'node:fs';
const prompt = readFileSync(0, 'utf8');
const name = process.argv[2];
const run = readFileSync('.run', 'utf8').trim();
const t0 = ${AGENT_T0};
let i = 0;
const emit = (o) => process.stdout.write(JSON.stringify({ ...o, ts: t0 + 250 * i++ }) + '\\n');
if (prompt.includes('FLAKY') && name === 'beta' && run === '3') {
  process.stderr.write('fatal: flaky crash\\n');
  process.exit(3);
}
emit({ type: 'text', text: 'Working on it.' });
emit({ type: 'usage', input: 100 + Number(run), output: 20 });
const answer = prompt.includes('COUNT') ? (run === '2' && name === 'alpha' ? 'count: unsure' : 'count: 42') : 'hello there';
emit({ type: 'result', text: answer });
`;

const GOAL = 'AXIS judge: goal';
const AGENT_JUDGE = 'AXIS judge: agent';
const tape = (grade: number) => ({
  turns: [{ text: 'unused: the command agent never asks the model' }],
  judge: [
    { match: GOAL, answer: { grades: [{ criterion_index: 0, score: grade, rationale: 'graded' }] } },
    {
      match: AGENT_JUDGE,
      answer: {
        audits: [{ id: 1, success: 1, weight: 1, relevance: 1, rationale: 'fine' }],
        necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
        patterns: [],
      },
    },
  ],
});
const scenario = (name: string, prompt: string, check: string) => ({
  name,
  prompt,
  setup: [{ action: 'run_script', command: 'echo "$AXIS_RUN_INDEX" > .run' }],
  judge: [{ check: 'The agent answered' }],
  checks: [{ name: 'the answer', result_matches: check }],
});

export const FILES: Record<string, string | object> = {
  'agent.mjs': AGENT,
  'axis.config.json': {
    name: 'shard suite',
    scenarios: './scenarios',
    agents: ['alpha', 'beta'].map((name) => ({
      agent: 'command',
      name,
      command: process.execPath,
      args: ['./agent.mjs', name],
      output: 'ndjson',
    })),
    settings: { runs: 3, concurrency: 3, simulate: true },
  },
  'scenarios/count.json': scenario('Count', 'COUNT the things', '\\b42\\b'),
  'scenarios/flaky.json': scenario('Flaky', 'Say hello (FLAKY)', 'hello'),
  'scenarios/greet.json': scenario('Greet', 'Say hello', 'hello'),
  'tapes/count.json': tape(9),
  'tapes/flaky.json': tape(7),
  'tapes/greet.json': tape(8),
};

export function newProject(): string {
  const dir = makeProject(FILES);
  // The agent's cwd is its workspace: the script is named by absolute path.
  const config = readJson(join(dir, 'axis.config.json')) as { agents: { args: string[] }[] };
  for (const a of config.agents) a.args[0] = join(dir, 'agent.mjs');
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config, null, 2));
  return dir;
}

export const onlyReport = (dir: string) => {
  const ids = readdirSync(join(dir, '.axis/reports'));
  expect(ids).toHaveLength(1);
  return join(dir, '.axis/reports', ids[0]!);
};
