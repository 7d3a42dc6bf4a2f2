/** Shared by the compare e2e tests: the toy `command` agent and simulator tapes that play the judge. */
import { join } from 'node:path';
import { ROOT } from '../run/helpers.js';

export const AGENT = join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh');

/** A `command` agent entry running {@link AGENT} under `name`. */
export const toyAgent = (name: string) => ({ agent: 'command', name, command: AGENT, output: 'ndjson' });

/** A config of the agent `toy` and these profiles. */
export const profileConfig = (profiles: Record<string, unknown>) => ({
  scenarios: './scenarios',
  agents: [toyAgent('toy')],
  profiles,
});

/** Judge answers: goal grade `goal` (0..10), every agent interaction perfect. */
export const tape = (goal: number) => ({
  turns: [{ text: 'unused: the toy agent has no model' }],
  judge: [
    {
      match: 'AXIS judge: goal',
      answer: { grades: [{ criterion_index: 0, score: goal, rationale: 'graded' }] },
    },
    {
      match: 'AXIS judge: agent',
      answer: {
        audits: [1, 2, 3].map((id) => ({ id, success: 1, weight: 1, relevance: 1, rationale: 'fine' })),
        necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
        patterns: [],
      },
    },
  ],
});
