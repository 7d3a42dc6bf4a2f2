/**
 * Rewriting a stored report when a write fails or the process dies: `axis score` and `axis reports <id>
 * --html` with the real CLI on a real report whose files cannot be replaced (a directory in the way of a
 * file), or killed with SIGKILL mid-way. Each must fail loudly (exit 1, the file named, no internal error)
 * and leave report.json readable, and a report left half-rescored must say so.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidReport } from '../../helpers/report-schema.js';
import { AGENT, tape } from '../compare/helpers.js';
import { axis, BIN, buildDist, startAxis } from '../run/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 60_000;
const dirs: string[] = [];
let source = '';

const write = writeIn;

/** A fresh copy of the scored two-job project made in beforeAll; returns its dir and report dir. */
function copy(): { dir: string; reportDir: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-rewrites-')));
  dirs.push(dir);
  cpSync(source, dir, { recursive: true });
  const reports = join(dir, '.axis/reports');
  return { dir, reportDir: join(reports, readdirSync(reports)[0]!) };
}

/** A scored project of the toy agent with one scenario per key, run once (goal 9 out of 10). */
async function scoredProject(dir: string, keys: readonly string[]): Promise<void> {
  write(dir, 'axis.config.json', {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
    settings: { simulate: true, concurrency: 4 },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
  for (const key of keys) {
    const scenario = { name: key, prompt: 'Write out.txt', judge: [{ check: 'written' }] };
    write(dir, `scenarios/${key}.json`, scenario);
    write(dir, `tapes/${key}.json`, tape(9));
  }
  const r = await axis(['run'], dir);
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

beforeAll(async () => {
  buildDist();
  source = realpathSync(mkdtempSync(join(tmpdir(), 'axis-rewrites-src-')));
  dirs.push(source);
  await scoredProject(source, ['a', 'b']);
}, T);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const NO_BUG = /Internal error|This is a bug|\n\s+at /;

describe('rewriting a stored report when a write fails', () => {
  it(
    'axis score: report.html cannot be replaced → exit 1 naming it and saying it shows the old scores',
    async () => {
      const { dir, reportDir } = copy();
      rmSync(join(reportDir, 'report.html'));
      mkdirSync(join(reportDir, 'report.html/in-the-way'), { recursive: true });
      const r = await axis(['score'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(/error: could not write \S*report\.html: a directory is in the way/);
      expect(r.stderr).toContain('still shows the old scores');
      expect(r.stderr).not.toMatch(NO_BUG);
      expect(r.stdout).toContain('1 file(s) could not be written');
      expectValidReport(reportDir);
    },
    T,
  );

  it(
    'axis score: a per-run file cannot be replaced → exit 1 naming it; the other runs and report.json are written',
    async () => {
      const { dir, reportDir } = copy();
      const sparse = join(reportDir, 'scenarios/a/toy.sparse-index.txt');
      rmSync(sparse);
      mkdirSync(join(sparse, 'in-the-way'), { recursive: true });
      const r = await axis(['score', '--no-cache'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain('scenarios/a/toy.sparse-index.txt');
      expect(r.stderr).not.toMatch(NO_BUG);
      // Run b was rescored and report.json rewritten with it: the failure cost one run, not the command.
      expect(r.stdout).toMatch(/^ {2}b {2}toy {2}AXIS/m);
      const m = expectValidReport(reportDir);
      expect(Date.parse(m.updatedAt!)).toBeGreaterThan(Date.parse(m.timestamp));
      const list = await axis(['reports', 'latest'], dir);
      expect(list.code, list.stderr).toBe(0);
    },
    T,
  );

  it(
    'axis score: a run it cannot rescore keeps its old score, and report.json still counts it',
    async () => {
      const { dir, reportDir } = copy();
      const before = expectValidReport(reportDir);
      expect(before.summary.scores?.scored).toBe(2);
      writeFileSync(join(reportDir, 'scenarios/a/toy.json'), '{"cut off');
      const r = await axis(['score', '--no-cache'], dir);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain('scenarios/a/toy.json');
      // Not expectValidReport: it would read the detail file spoiled above.
      const m = JSON.parse(readFileSync(join(reportDir, 'report.json'), 'utf8')) as typeof before;
      const a = m.results.find((e) => e.scenarioKey === 'a')!;
      expect(a.score?.axisScore).toBe(before.results.find((e) => e.scenarioKey === 'a')!.score?.axisScore);
      // The summary is over every pair with a score, not only the ones this command rescored.
      expect(m.summary.scores?.scored).toBe(2);
      expect(m.summary.averageAxisScore).toBe(before.summary.averageAxisScore);
    },
    T,
  );

  it(
    'axis reports <id> --html: report.html cannot be written → exit 1 naming it, no internal error',
    async () => {
      const { dir, reportDir } = copy();
      rmSync(join(reportDir, 'report.html'));
      mkdirSync(join(reportDir, 'report.html/in-the-way'), { recursive: true });
      const r = await axis(['reports', 'latest', '--html'], dir, { CI: '1' });
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(/Cannot write \S*report\.html: /);
      expect(r.stderr).not.toMatch(NO_BUG);
    },
    T,
  );
});

describe('axis score killed mid-way', () => {
  it(
    'SIGKILL after the first run is rewritten: axis reports says the rescore did not finish; a rerun clears it',
    async () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-rewrites-kill-')));
      dirs.push(dir);
      const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'];
      await scoredProject(dir, keys);
      for (const key of keys) write(dir, `tapes/${key}.json`, tape(2)); // every score changes
      const [id] = readdirSync(join(dir, '.axis/reports'));

      // One run at a time: report.json is rewritten after all eight, so a kill at the first line lands
      // between the per-run files and report.json.
      const score = startAxis(['score', '--concurrency', '1', '--no-cache'], dir);
      await new Promise<void>((resolve) => {
        const onData = (d: Buffer) => {
          if (!/ {2}toy {2}AXIS/.test(d.toString())) return;
          score.child.stdout!.off('data', onData);
          score.child.kill('SIGKILL');
          resolve();
        };
        score.child.stdout!.on('data', onData);
      });
      expect((await score.done).signal).toBe('SIGKILL');

      const view = await axis(['reports', id!], dir);
      expect(view.code, view.stderr).toBe(0);
      expect(view.stderr).toContain(`axis score ${id}`);
      expect(view.stderr).toMatch(/did not finish/);
      const json = await axis(['reports', id!, '--json'], dir);
      expect(json.code, json.stderr).toBe(0);
      expect(json.stderr).toMatch(/did not finish/);
      JSON.parse(json.stdout);
      const base = await axis(['baseline', 'set', '--from', id!], dir);
      expect(base.code, base.stderr).toBe(0);
      expect(base.stderr).toMatch(/did not finish/);

      const again = await axis(['score'], dir);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      const after = await axis(['reports', id!], dir);
      expect(after.code, after.stderr).toBe(0);
      expect(after.stderr).toBe('');
      expect(expectValidReport(join(dir, '.axis/reports', id!)).summary.averageAxisScore).toBeLessThan(90);
    },
    T,
  );
});

/** Why a tmpfs cannot be mounted in a private mount namespace here; undefined when it can. */
function noMountNamespace(): string | undefined {
  const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs "${tmpdir()}"`]);
  return r.error || r.status !== 0 ? 'unshare -m with a tmpfs mount is not available' : undefined;
}

describe.skipIf(noMountNamespace())('axis reports merge on a full disk', () => {
  it(
    'report.html does not fit: exit 1, the page named as lost, never "Report saved"',
    async () => {
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-rewrites-merge-')));
      dirs.push(dir);
      await scoredProject(dir, ['m']);
      const shard = await axis(['run', '--shard', '1/1'], dir);
      expect(shard.code, shard.stdout + shard.stderr).toBe(0);
      const reports = join(dir, '.axis/reports');
      rmSync(reports, { recursive: true });
      mkdirSync(reports);
      // 64 KB holds the merged report.json and run files (about 20 KB), not report.html (over 100 KB).
      const script = [
        `mount -t tmpfs -o size=64k tmpfs "${reports}" || exit 99`,
        `"${process.execPath}" "${BIN}" reports merge .axis/blobs; code=$?`,
        `ls -R "${reports}" > "${dir}/listing.txt"`,
        'exit $code',
      ].join('\n');
      const r = spawnSync('unshare', ['-m', 'sh', '-c', script], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      const out = `${r.stdout}\n--- stderr ---\n${r.stderr}`;
      expect(r.status, out).toBe(1);
      expect(out).toMatch(/lost: report\.html: .*no space left on the device/);
      expect(out).not.toContain('Report saved');
      expect(out).not.toMatch(NO_BUG);
      const listing = readFileSync(join(dir, 'listing.txt'), 'utf8');
      expect(listing).toContain('report.json');
      expect(listing).not.toContain('report.html');
    },
    T,
  );
});
