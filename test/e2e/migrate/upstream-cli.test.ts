/**
 * Command lines written for upstream AXIS (netlify/axis 1.17) work here or are refused with a reason:
 * real `node bin/axis.js` processes on a real project.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 90_000;
let dir = '';

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-upstream-cli-')));
  writeIn(dir, 'axis.config.json', {
    scenarios: './scenarios',
    agents: [
      { ...TOY_AGENT, name: 'toy-a' },
      { ...TOY_AGENT, name: 'toy-b' },
      { ...TOY_AGENT, name: 'toy-c' },
    ],
  });
  writeIn(dir, 'scenarios/hello.json', { name: 'Hello', prompt: 'Say hello', judge: 'It said hello' });
  const r = await axis(['run', '--no-score'], dir);
  if (r.code !== 0) throw new Error(r.stderr);
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('upstream command lines', () => {
  it(
    'axis reports <id> <scenario> -a a -a b shows both agents (upstream repeats -a), not only the last',
    async () => {
      const r = await axis(['reports', 'latest', 'hello', '-a', 'toy-a', '-a', 'toy-b', '--json'], dir);
      expect(r.code, r.stderr).toBe(0);
      const runs = JSON.parse(r.stdout) as { agentName: string }[] | { agentName: string };
      const names = (Array.isArray(runs) ? runs : [runs]).map((x) => x.agentName);
      expect(new Set(names)).toEqual(new Set(['toy-a', 'toy-b']));
    },
    T,
  );

  it(
    'an upstream claude-sdk / codex-sdk entry with a model is refused naming the preset and how to set its model',
    async () => {
      const project = realpathSync(mkdtempSync(join(tmpdir(), 'axis-upstream-sdk-')));
      try {
        writeIn(project, 'scenarios/hello.json', {
          name: 'Hello',
          prompt: 'Say hello',
          judge: 'It said hello',
        });
        const cases: [string, string][] = [
          ['claude-sdk', '"env": { "ANTHROPIC_MODEL": "claude-sonnet-4-5" }'],
          ['codex-sdk', '"args": ["-c", "model=\\"claude-sonnet-4-5\\""]'],
        ];
        for (const [agent, hint] of cases) {
          writeIn(project, 'axis.config.json', { agents: [{ agent, model: 'claude-sonnet-4-5' }] });
          const r = await axis(['validate'], project);
          expect(r.code, r.stderr).toBe(2);
          expect(r.stderr).toContain(`agents[0].model: agent "${agent}" (an ACP preset) cannot take a model`);
          expect(r.stderr).toContain(hint);
        }
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
    T,
  );

  it(
    'axis validate / run: a repeated -a, -s or -t adds to the selection instead of silently keeping the last one',
    async () => {
      const r = await axis(
        ['validate', '--json', '-a', 'toy-a', '-a', 'toy-c', '-s', 'hello', '-s', 'hello'],
        dir,
      );
      expect(r.code, r.stderr).toBe(0);
      const jobs = (JSON.parse(r.stdout) as { jobs: { agent: string }[] }).jobs;
      expect(jobs.map((j) => j.agent).sort()).toEqual(['toy-a', 'toy-c']);
      const run = await axis(['run', '--no-score', '--json', '-a', 'toy-b', '-a', 'toy-c'], dir);
      expect(run.code, run.stderr).toBe(0);
      const results = (JSON.parse(run.stdout) as { results: { agentName: string }[] }).results;
      expect(results.map((x) => x.agentName).sort()).toEqual(['toy-b', 'toy-c']);
    },
    T,
  );
});
