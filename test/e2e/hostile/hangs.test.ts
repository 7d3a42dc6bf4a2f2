/**
 * Hangs: a FIFO in the workspace behind `file` checks, and a catastrophic regex in `result_matches`,
 * must neither hang the run nor block the event loop: the checks fail saying why, within their budget,
 * and SIGTERM still stops AXIS at once.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist, startAxis } from '../run/helpers.js';
import { shellProject } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 90_000;
const EVIL = `${'a'.repeat(40)}b`;

interface Detail {
  status: string;
  checks?: { label: string; passed: boolean; rationale: string }[];
}

function detail(dir: string, key: string, agent: string): Detail {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root).sort().at(-1)!;
  return readJson<Detail>(join(root, id, 'scenarios', key, `${agent}.json`));
}

describe('hangs that ignore signals', () => {
  it(
    'a FIFO behind file checks fails them as "a FIFO, not a regular file" instead of blocking forever',
    async () => {
      const dir = shellProject(
        { fifo: 'cat >/dev/null; mkfifo pipe; echo done' },
        {
          fifo: {
            checks: [
              { name: 'contains', file: 'pipe', contains: 'x' },
              { name: 'matches', file: 'pipe', matches: 'x' },
              { name: 'exists', file: 'pipe', exists: true },
            ],
          },
        },
      );
      const started = Date.now();
      const r = await axis(['run', '--no-score'], dir);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(r.code, r.stdout + r.stderr).not.toBeNull();
      const d = detail(dir, 'fifo', 'fifo');
      expect(d.status).toBe('completed');
      expect(d.checks?.map((c) => [c.label, c.passed])).toEqual([
        ['contains', false],
        ['matches', false],
        ['exists', true],
      ]);
      expect(d.checks?.[0]?.rationale).toBe('Failed: pipe is a FIFO, not a regular file (not read)');
      expect(d.checks?.[2]?.rationale).toBe('Passed: pipe exists (a FIFO)');
    },
    T,
  );

  it(
    'a catastrophic result_matches regex fails at its time limit; the run goes on',
    async () => {
      const dir = shellProject(
        { evil: `cat >/dev/null; echo ${EVIL}` },
        {
          evil: {
            checks: [
              { name: 'evil', result_matches: '^(a+)+$' },
              { name: 'ok', result_matches: 'b$' },
            ],
          },
        },
      );
      const started = Date.now();
      const r = await axis(['run', '--no-score'], dir);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(r.code, r.stdout + r.stderr).not.toBeNull();
      const d = detail(dir, 'evil', 'evil');
      expect(d.checks?.map((c) => [c.label, c.passed])).toEqual([
        ['evil', false],
        ['ok', true],
      ]);
      expect(d.checks?.[0]?.rationale).toMatch(
        /^Failed: matching \^\(a\+\)\+\$ against the final answer did not finish within 5 s/,
      );
    },
    T,
  );

  it(
    'SIGTERM during a catastrophic regex stops AXIS at once (exit 143, report written)',
    async () => {
      const dir = shellProject(
        { evil: `cat >/dev/null; echo ${EVIL}` },
        { evil: { checks: [{ name: 'evil', result_matches: '^(a+)+$' }] } },
      );
      const run = startAxis(['run', '--no-score', '-v'], dir);
      // The check starts once the agent has ended.
      const until = Date.now() + 30_000;
      while (!/agent ended/.test(run.output()) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50));
      const sent = Date.now();
      run.child.kill('SIGTERM');
      const r = await run.done;
      expect(Date.now() - sent, run.output()).toBeLessThan(4000);
      expect(r.code).toBe(143);
      expect(detail(dir, 'evil', 'evil').status).toBe('completed');
    },
    T,
  );
});
