/**
 * `axis run --failed` re-runs the failed pairs as the report ran them: with its number of runs per pair
 * (report.json `settings.runs`), not the config's, unless `--runs` names another. A report made with
 * `--runs 1` re-ran each failed pair 3 times when the config said 3.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { axis, buildDist } from './helpers.js';
import { toyAgent } from '../compare/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 60_000;
let dir = '';
let first = '';

interface Manifest {
  reportId: string;
  rerunOf?: string;
  settings: { runs: number };
  results: { agentName: string; status: string; runs: unknown[] }[];
}
const manifest = (id: string) =>
  JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8')) as Manifest;

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-failed-runs-')));
  writeIn(dir, 'axis.config.json', {
    scenarios: './scenarios',
    agents: [toyAgent('toy'), toyAgent('flaky')],
    settings: { runs: 3 },
  });
  writeIn(dir, 'scenarios/hello.json', {
    name: 'hello',
    prompt: 'Write out.txt',
    checks: [{ name: 'out.txt', file: 'out.txt', exists: true }],
    setup: [{ action: 'run_script', command: 'test "$AXIS_AGENT" != flaky' }],
  });
  const run = await axis(['run', '--runs', '1', '--no-score', '--json'], dir);
  expect(run.code, run.stderr).toBe(1);
  first = (JSON.parse(run.stdout) as Manifest).reportId;
  expect(manifest(first).settings.runs).toBe(1);
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(
  're-runs a failed pair as many times as its report ran it, and says so',
  async () => {
    const r = await axis(['run', '--failed', first, '--no-score', '--json'], dir);
    expect(r.code, r.stderr).toBe(1);
    const m = manifest((JSON.parse(r.stdout) as Manifest).reportId);
    expect(m.rerunOf).toBe(first);
    expect(m.settings.runs).toBe(1);
    expect(m.results.map((e) => [e.agentName, e.runs.length])).toEqual([['flaky', 1]]);
    expect(r.stderr).toContain(
      `note: 1 run per pair, as report ${first} ran them (the config says 3); --runs <n> picks another`,
    );
  },
  T,
);

it(
  '--runs still picks the number',
  async () => {
    const r = await axis(['run', '--failed', first, '--runs', '3', '--no-score', '--json'], dir);
    const m = manifest((JSON.parse(r.stdout) as Manifest).reportId);
    expect(m.results.map((e) => [e.agentName, e.runs.length])).toEqual([['flaky', 3]]);
    expect(r.stderr).not.toContain('run per pair');
  },
  T,
);

it(
  "a report's runs out of range is named, never run that many times",
  async () => {
    const file = join(dir, '.axis/reports', first, 'report.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    doc.settings.runs = 1000;
    writeFileSync(file, JSON.stringify(doc));
    const r = await axis(['run', '--failed', first, '--no-score'], dir);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(
      `report ${first}: settings.runs: expected an odd integer from 1 to 19, found 1000`,
    );
  },
  T,
);
