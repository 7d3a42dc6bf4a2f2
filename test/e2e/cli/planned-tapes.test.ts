/**
 * Under the simulator only the scenarios a run or validate selects need their tapes: another scenario's
 * missing tape does not stop `axis run -s a`, and a selected one's is still a config error (exit 2).
 * `axis run --failed` selects the failed pairs: beside a broken scenario file it lists their tapes only.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { toyAgent } from '../compare/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 60_000;
const says = (prompt: string, extra: Record<string, unknown> = {}) => ({
  name: prompt,
  prompt,
  checks: [{ file: 'out.txt', exists: true }],
  ...extra,
});

let dir = '';
beforeAll(() => {
  buildDist();
  dir = makeProject({
    'axis.config.json': { agents: [TOY_AGENT], settings: { simulate: true } },
    'scenarios/a.json': says('a'),
    'scenarios/b.json': says('b'),
    'scenarios/c.json': says('c', { tape: '../fixtures/gone.json' }),
    'scenarios/off.json': says('off', { skip: true }),
    'tapes/a.json': { turns: [{ text: 'done' }] },
  });
});
afterAll(() => removeTempDirs());

const NO_TAPE_B = (d: string) =>
  `scenarios/b.json: simulate is on but there is no tape for "b": expected ${d}/tapes/b.json ` +
  '(write one: docs/simulator.md#tapes; record one: axis sim record; or set "tape")';

describe('tapes of the selected scenarios only', () => {
  it(
    'validate -s a and run -s a go ahead while b and c have no tape (and the skipped one needs none)',
    async () => {
      const v = await axis(['validate', '-s', 'a'], dir);
      expect(v.stderr).toBe('');
      expect(v.code).toBe(0);
      const r = await axis(['run', '-s', 'a', '--no-score', '--json'], dir);
      expect(r.code, r.stderr).not.toBe(2);
      const { results } = JSON.parse(r.stdout) as { results: { scenarioKey: string; status: string }[] };
      expect(results.map((x) => [x.scenarioKey, x.status])).toEqual([['a', 'completed']]);
    },
    T,
  );

  it(
    'a selected scenario without its tape is exit 2 naming the file, the field and the path expected',
    async () => {
      const v = await axis(['validate'], dir);
      expect(v.code).toBe(2);
      expect(v.stderr).toContain(`${NO_TAPE_B(dir)}\n`);
      expect(v.stderr).toContain(
        `scenarios/c.json: tape: simulate is on but the tape file does not exist: ${dir}/fixtures/gone.json\n`,
      );
      expect(v.stderr).not.toContain('off');
      expect(v.stderr).not.toMatch(/\n\s+at /);

      const reports = () =>
        existsSync(join(dir, '.axis/reports')) ? readdirSync(join(dir, '.axis/reports')) : [];
      const before = reports();
      const r = await axis(['run', '-s', 'b', '--no-score'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${NO_TAPE_B(dir)}\n`);
      expect(r.stderr).not.toContain('c.json');
      expect(reports()).toEqual(before); // refused before any job
    },
    T,
  );
});

describe('axis run --failed beside a broken scenario file', () => {
  it(
    'lists the missing tapes of the failed pairs it would re-run, not those of every scenario',
    async () => {
      // flaky fails its setup in `a` only: the report's one failed pair is a · flaky.
      const fails = { setup: [{ action: 'run_script', command: 'test "$AXIS_AGENT" != flaky' }] };
      const p = makeProject({
        'axis.config.json': {
          agents: [toyAgent('toy'), toyAgent('flaky')],
          settings: { simulate: true },
          profiles: { ci: {} },
        },
        'scenarios/a.json': says('a', fails),
        'scenarios/b.json': says('b'),
        'scenarios/c.json': says('c'),
        'tapes/a.json': { turns: [{ text: 'done' }] },
        'tapes/b.json': { turns: [{ text: 'done' }] },
        'tapes/c.json': { turns: [{ text: 'done' }] },
      });
      const first = await axis(['run', '--no-score'], p);
      expect(first.code, first.stderr).toBe(1);
      writeFileSync(join(p, 'scenarios/c.json'), '{"name":');
      rmSync(join(p, 'tapes'), { recursive: true });
      for (const args of [
        ['run', '--failed'],
        ['run', '--failed', '--profile', 'ci'],
      ]) {
        const r = await axis([...args, '--no-score'], p);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain('Invalid configuration (2 problems):\n');
        expect(r.stderr).toContain('scenarios/c.json: invalid JSON');
        expect(r.stderr).toContain('scenarios/a.json: simulate is on but there is no tape for "a"');
        expect(r.stderr).not.toContain('"b"');
      }
    },
    T,
  );

  it(
    'a broken tape is named relative to the cwd, as the config and scenario files are',
    async () => {
      const p = makeProject({
        'axis.config.json': { agents: [TOY_AGENT], settings: { simulate: true } },
        'scenarios/a.json': says('a'),
        'tapes/a.json': { turns: 'one' },
      });
      const here = await axis(['validate'], p);
      expect(here.code, here.stderr).toBe(2);
      expect(here.stderr).toContain('\n  tapes/a.json: turns: expected array, found string\n');
      const above = await axis(['validate', '-c', `${basename(p)}/axis.config.json`], dirname(p));
      expect(above.code, above.stderr).toBe(2);
      expect(above.stderr).toContain(`\n  ${basename(p)}/tapes/a.json: turns: expected array`);
      expect(above.stderr).not.toContain(p);
    },
    T,
  );
});
