/**
 * A report the comparison cannot read (no runs, a scored run without its score: a hand edit, a damaged
 * file, an upstream netlify/axis report) is bad input for `baseline set`, `baseline compare` and
 * `axis compare`: exit 2 naming the file and the field, never an internal error or a baseline file that
 * cannot be read back.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { tape, toyAgent } from './helpers.js';

let dir = '';
let report = '';
let pristine = '';
const write = (rel: string, content: unknown) => {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
};

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-damaged-report-')));
  write('axis.config.json', {
    scenarios: './scenarios',
    agents: [toyAgent('toy'), toyAgent('other')],
    settings: { simulate: true, runs: 3 },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
  write('scenarios/hello.json', { name: 'hello', prompt: 'Write out.txt', judge: [{ check: 'written' }] });
  write('tapes/hello.json', tape(9));
  const run = await axis(['run', '--json'], dir);
  expect(run.code, run.stderr).toBe(0);
  const id = JSON.parse(run.stdout).reportId as string;
  expect((await axis(['baseline', 'set'], dir)).code).toBe(0);
  report = join(dir, '.axis/reports', id, 'report.json');
  pristine = readFileSync(report, 'utf8');
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function damaged(edit: (m: { results: Record<string, unknown>[] }) => void, field: RegExp) {
  const m = JSON.parse(pristine);
  edit(m);
  writeFileSync(report, JSON.stringify(m));
  for (const args of [
    ['baseline', 'compare'],
    ['baseline', 'set', 'other'],
    ['compare', '--agents', 'toy,other'],
  ]) {
    const r = await axis(args, dir);
    expect(r.stderr, args.join(' ')).not.toMatch(/Internal error/);
    expect(r.stderr, args.join(' ')).toMatch(field);
    expect(r.code, args.join(' ')).toBe(2);
  }
  expect(existsSync(join(dir, '.axis/baselines/other.json'))).toBe(false);
}

describe('a report the comparison cannot read', () => {
  it('a pair without runs (an upstream report has none)', async () => {
    await damaged(
      (m) => delete m.results[0]!.runs,
      /report\.json: results\[0\]\.runs: expected at least one run/,
    );
    await damaged(
      (m) => (m.results[0]!.runs = []),
      /report\.json: results\[0\]\.runs: expected at least one run/,
    );
  }, 60_000);

  it('a run marked scored without its AXIS Result', async () => {
    await damaged(
      (m) => ((m.results[0]!.runs as Record<string, unknown>[])[1]!.axisScore = null),
      /report\.json: results\[0\]\.runs\[1\]\.axisScore: expected a number from 0 to 100 for a scored run, found null/,
    );
  }, 60_000);
});
