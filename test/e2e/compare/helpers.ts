/** Shared by the compare e2e tests: the toy `command` agent and simulator tapes that play the judge. */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../run/helpers.js';
import { PERFECT_AGENT_JUDGE } from '../../helpers/judge-tape.js';

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
    PERFECT_AGENT_JUDGE,
  ],
});

/** Writes `content` as JSON at `rel` under `dir`, making its folders. */
export function writeJson(dir: string, rel: string, content: unknown): void {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(content));
}

/**
 * A temp project (the caller removes it): the agent `toy`, `settings` over `simulate: true`, and per key a
 * scenario with one judge check and a tape whose judge grades it 9.
 */
export function simProject(prefix: string, settings: Record<string, unknown>, keys: string[]): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  writeJson(dir, 'axis.config.json', {
    scenarios: './scenarios',
    agents: [toyAgent('toy')],
    settings: { simulate: true, ...settings },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
  for (const key of keys) {
    writeJson(dir, `scenarios/${key}.json`, {
      name: key,
      prompt: 'Write out.txt',
      judge: [{ check: 'written' }],
    });
    writeJson(dir, `tapes/${key}.json`, tape(9));
  }
  return dir;
}
