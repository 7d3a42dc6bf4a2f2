/**
 * The report store under hostile conditions, with real processes, real signals and real file systems:
 * AXIS killed with SIGKILL mid-run, the disk filling up mid-run (a 400 KB tmpfs mounted over `.axis` in
 * a private mount namespace), and `.axis/reports` being a regular file or read-only.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
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
import { afterAll, describe, expect, it } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { expectValidReport } from '../../helpers/report-schema.js';
import { axis, BIN, startAxis } from '../run/helpers.js';
import { axisBinForOthers, removeRuntimeCopy } from '../../helpers/other-user.js';

checkLeaks();

const T = 120_000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  removeRuntimeCopy();
});

function tempDir(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'axis-store-writes-')));
  dirs.push(d);
  return d;
}

/** One AXIS NDJSON transcript whose tool output is `bytes` long. */
function transcript(bytes: number): string {
  const lines = [
    { type: 'tool_call', id: 'c1', name: 'shell', input: { command: 'cat data.txt' } },
    { type: 'tool_result', id: 'c1', output: 'x'.repeat(bytes), exit_code: 0 },
    { type: 'result', text: 'Done.' },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/**
 * A project of `jobs` scenarios and one `command` agent that waits `delay` seconds, then prints a
 * transcript with `bytes` of tool output. The project's TMPDIR is its own, so whatever a killed run
 * leaves is removed with it.
 */
function project(jobs: number, opts: { bytes?: number; delay?: number; concurrency?: number } = {}) {
  const dir = tempDir();
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(join(dir, 'transcript.ndjson'), transcript(opts.bytes ?? 100));
  const script = `sleep ${opts.delay ?? 0}; cat "${join(dir, 'transcript.ndjson')}"`;
  const agents = [
    { agent: 'command', name: 'fixed', command: '/bin/sh', args: ['-c', script], output: 'ndjson' },
  ];
  for (let i = 0; i < jobs; i++) {
    const scenario = { name: `Job ${i}`, prompt: `Do ${i}.`, judge: [{ check: 'It did it' }] };
    writeFileSync(join(dir, 'scenarios', `s${String(i).padStart(3, '0')}.json`), JSON.stringify(scenario));
  }
  const settings = { concurrency: opts.concurrency ?? 1 };
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents, settings }),
  );
  return { dir, env: { TMPDIR: tmp } };
}

function reportIds(reports: string): string[] {
  return existsSync(reports) ? readdirSync(reports).filter((n) => /^\d{4}-/.test(n)) : [];
}

/** Every file report.json names exists; returns the manifest. */
function expectConsistent(reportDir: string) {
  const m = expectValidReport(reportDir);
  for (const run of m.results.flatMap((r) => r.runs)) {
    const f = run.files ?? {};
    for (const rel of [f.detail, f.raw, f.artifactsDir, f.debug, f.debugStderr].filter(Boolean))
      expect(existsSync(join(reportDir, ...rel!.split('/'))), `${rel} is named by report.json`).toBe(true);
    for (const rel of f.missing ?? [])
      expect(existsSync(join(reportDir, ...rel.split('/'))), `${rel} is listed as missing`).toBe(false);
  }
  return m;
}

/** Resolves when `ok()` holds (checked every 20 ms); fails after 30 s with `output()`. */
async function until(ok: () => boolean, output: () => string): Promise<void> {
  for (const end = Date.now() + 30_000; !ok(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > end) throw new Error(`timed out; output so far:\n${output()}`);
}

/** `unshare -m` with a tmpfs mount works here (root or CAP_SYS_ADMIN); the reason when it does not. */
function mountNamespaceProblem(): string | undefined {
  const probe = tempDir();
  const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs "${probe}"`], {
    encoding: 'utf8',
  });
  if (r.error) return `unshare is not available: ${r.error.message}`;
  return r.status === 0 ? undefined : `cannot mount a tmpfs in a mount namespace: ${r.stderr.trim()}`;
}
const noMountNs = mountNamespaceProblem();
if (noMountNs) process.stdout.write(`store-writes: skipping the tmpfs and read-only cases: ${noMountNs}\n`);

describe('report store: crashes, full disks, unwritable stores', () => {
  it(
    'SIGKILL mid-run leaves a valid, readable report.json that names only files that exist',
    async () => {
      const p = project(40, { delay: 0.15, concurrency: 2 });
      const run = startAxis(['run', '--no-score'], p.dir, p.env);
      // Wait until jobs have finished for a while (report.json is rewritten at most once a second).
      const deadline = Date.now() + 60_000;
      let firstDone = 0;
      while (Date.now() < deadline) {
        const done = (run.output().match(/✓/g) ?? []).length;
        if (done > 0 && !firstDone) firstDone = Date.now();
        if (done >= 6 && firstDone && Date.now() - firstDone > 2500) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(run.child.kill('SIGKILL')).toBe(true);
      const res = await run.done;
      expect(res.signal).toBe('SIGKILL');

      const reports = join(p.dir, '.axis/reports');
      const [id] = reportIds(reports);
      expect(id, run.output()).toBeDefined();
      const m = expectConsistent(join(reports, id!));
      expect(m.incomplete).toBe(true);
      expect(m.incompleteReason).toBe('the run had not finished when this report was written');
      // Coalesced, not lost: the jobs finished a second or more before the kill are in it.
      expect(m.results.length).toBeGreaterThan(0);
      expect(m.results.length).toBeLessThan(40);

      const list = await axis(['reports'], p.dir);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain(id);
      const one = await axis(['reports', id!], p.dir);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stdout).toMatch(/Incomplete +the run had not finished when this report was written/);
    },
    T,
  );

  it(
    'Ctrl-C twice right after jobs finish: report.json names every job that finished, exit 130',
    async () => {
      const p = project(3, { concurrency: 3 });
      // Job 2 never finishes; jobs 0 and 1 finish at once, well inside report.json's one-second coalescing.
      const script = `p=$(cat); case "$p" in *2.*) sleep 60 ;; esac; cat "${join(p.dir, 'transcript.ndjson')}"`;
      const config = JSON.parse(readFileSync(join(p.dir, 'axis.config.json'), 'utf8'));
      config.agents[0].args = ['-c', script];
      writeFileSync(join(p.dir, 'axis.config.json'), JSON.stringify(config));
      const run = startAxis(['run', '--no-score'], p.dir, p.env);
      await until(() => (run.output().match(/✓/g) ?? []).length === 2, run.output);
      run.child.kill('SIGINT');
      await until(() => run.output().includes('Press Ctrl-C again'), run.output);
      run.child.kill('SIGINT');
      const res = await run.done;
      expect(res.code, run.output()).toBe(130);

      const reports = join(p.dir, '.axis/reports');
      const [id] = reportIds(reports);
      const m = expectConsistent(join(reports, id!));
      expect(m.incomplete).toBe(true);
      const done = m.results.filter((r) => r.status === 'completed').map((r) => r.scenarioKey);
      expect(done.sort()).toEqual(['s000', 's001']);
    },
    T,
  );

  it.skipIf(noMountNs)(
    'disk full mid-run: exit ≠ 0, the lost files named, report.json consistent with what was written',
    () => {
      // Each job writes ~2 × 120 KB (raw lines, detail file): the third cannot fit in 400 KB.
      const p = project(4, { bytes: 120_000 });
      const copy = join(tempDir(), 'copy');
      mkdirSync(join(copy, '.axis'), { recursive: true });
      mkdirSync(join(p.dir, '.axis'));
      const script = [
        `mount -t tmpfs -o size=400k tmpfs "${p.dir}/.axis" || exit 99`,
        `"${process.execPath}" "${BIN}" run --no-score; code=$?`,
        // The tmpfs vanishes with the namespace: keep what was written for the checks below.
        `cp -a "${p.dir}/.axis/." "${copy}/.axis/"`,
        'exit $code',
      ].join('\n');
      const r = spawnSync('unshare', ['-m', 'sh', '-c', script], {
        cwd: p.dir,
        env: { ...process.env, ...p.env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 90_000,
      });
      const out = `${r.stdout}\n--- stderr ---\n${r.stderr}`;
      expect(r.status, out).not.toBe(99);
      expect(r.status, out).not.toBe(0);
      expect(r.status, out).toBe(1);
      expect(out).not.toContain('Report saved');
      expect(out).not.toMatch(/Internal error/);
      expect(out).toMatch(/Report NOT fully saved/);
      const lost = [...r.stdout.matchAll(/^ {2}lost: (\S+): (.*)$/gm)].map((x) => [x[1], x[2]]);
      expect(lost.length, out).toBeGreaterThan(0);
      for (const [, why] of lost) expect(why).toMatch(/ENOSPC|no space/i);

      const reports = join(copy, '.axis/reports');
      const [id] = reportIds(reports);
      const reportDir = join(reports, id!);
      const m = expectConsistent(reportDir);
      // Every lost per-run file is either not named by report.json or listed as missing there.
      const named = new Set(
        m.results.flatMap((e) => e.runs).flatMap((x) => [x.files?.detail, x.files?.raw].filter(Boolean)),
      );
      for (const [path] of lost) expect(named.has(path!), `${path} is lost but named`).toBe(false);
      const reads = spawnSync(process.execPath, [BIN, 'reports', id!], { cwd: copy, encoding: 'utf8' });
      expect(reads.status, reads.stderr).toBe(0);
    },
    T,
  );

  it(
    '.axis/reports is a regular file: exit 2 naming the path, no internal error, no job run',
    async () => {
      const p = project(1);
      mkdirSync(join(p.dir, '.axis'));
      writeFileSync(join(p.dir, '.axis/reports'), 'not a folder\n');
      const r = await axis(['run', '--no-score'], p.dir, p.env);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('.axis/reports');
      expect(r.stderr).toContain('is a file, not a directory');
      expect(r.stderr).not.toMatch(/Internal error|EEXIST|ENOTDIR|\n\s+at /);
      expect(r.stdout).not.toContain('✓');
      expect(readFileSync(join(p.dir, '.axis/reports'), 'utf8')).toBe('not a folder\n');
    },
    T,
  );

  it.skipIf(noMountNs)(
    '.axis/reports on a read-only mount: exit 2 naming the path, no internal error',
    () => {
      const p = project(1);
      const reports = join(p.dir, '.axis/reports');
      mkdirSync(reports, { recursive: true });
      const script = [
        `mount --bind "${reports}" "${reports}" && mount -o remount,bind,ro "${reports}" || exit 99`,
        `exec "${process.execPath}" "${BIN}" run --no-score`,
      ].join('\n');
      const r = spawnSync('unshare', ['-m', 'sh', '-c', script], {
        cwd: p.dir,
        env: { ...process.env, ...p.env, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('.axis/reports');
      expect(r.stderr).toContain('read-only file system');
      expect(r.stderr).not.toMatch(/Internal error|EROFS|EPERM|\n\s+at /);
      expect(readdirSync(reports)).toEqual([]);
    },
    T,
  );

  it(
    '.axis/reports without write permission: exit 2 naming the path (as an unprivileged user)',
    async () => {
      const p = project(1);
      const reports = join(p.dir, '.axis/reports');
      mkdirSync(reports, { recursive: true });
      spawnSync('chmod', ['a-w', reports]);
      // root ignores permissions: run as nobody (setpriv), which may read the project but not write reports
      const asNobody = process.getuid?.() === 0;
      if (asNobody) spawnSync('chmod', ['-R', 'a+rX', p.dir]);
      const cmd = asNobody
        ? [
            'setpriv',
            [
              '--reuid=nobody',
              '--regid=nogroup',
              '--clear-groups',
              process.execPath,
              axisBinForOthers(),
              'run',
              '--no-score',
            ],
          ]
        : [process.execPath, [BIN, 'run', '--no-score']];
      const r = spawnSync(cmd[0] as string, cmd[1] as string[], {
        cwd: p.dir,
        env: { ...process.env, TMPDIR: tmpdir(), HOME: p.dir, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      spawnSync('chmod', ['u+w', reports]);
      expect(r.status, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('.axis/reports');
      expect(r.stderr).toContain('permission denied');
      expect(r.stderr).not.toMatch(/Internal error|EACCES|\n\s+at /);
    },
    T,
  );

  it(
    'report.json failing twice, then written: not listed as lost, the run saved, exit 0',
    async () => {
      const p = project(3);
      // Job 0 puts a directory where report.json goes (the rewrites after jobs 0 and 1 fail); job 2
      // removes it, so the final write succeeds.
      const reports = join(p.dir, '.axis/reports');
      const script =
        `p=$(cat); rj=$(echo "${reports}"/*/report.json); case "$p" in *0.*) rm -f "$rj"; mkdir "$rj" ;; ` +
        `*1.*) sleep 1.5 ;; *2.*) sleep 1.5; rmdir "$rj" ;; esac; cat "${join(p.dir, 'transcript.ndjson')}"`;
      const config = JSON.parse(readFileSync(join(p.dir, 'axis.config.json'), 'utf8'));
      config.agents[0].args = ['-c', script];
      writeFileSync(join(p.dir, 'axis.config.json'), JSON.stringify(config));
      // The project is under /tmp: the process-group mode, so the agent sees it (no private /tmp).
      const r = await axis(['run', '--no-score'], p.dir, { ...p.env, AXIS_CONTAINMENT: 'process-group' });
      const out = r.stdout + r.stderr;
      expect(r.stderr, out).toContain('Could not write report.json');
      expect(out).not.toContain('lost: report.json');
      expect(r.stdout).toContain('Report saved:');
      expect(r.code, out).toBe(0);
      const m = expectConsistent(join(reports, reportIds(reports)[0]!));
      expect(m.results.map((e) => e.status)).toEqual(['completed', 'completed', 'completed']);
    },
    T,
  );

  it(
    'no report.json on disk at the end: the summary says the report was not saved and points to no view',
    async () => {
      const p = project(2);
      // Job 0 puts a directory where report.json goes and it stays: no report.json is ever written.
      const reports = join(p.dir, '.axis/reports');
      const script =
        `p=$(cat); rj=$(echo "${reports}"/*/report.json); case "$p" in *0.*) rm -f "$rj"; mkdir "$rj" ;; esac; ` +
        `cat "${join(p.dir, 'transcript.ndjson')}"`;
      const config = JSON.parse(readFileSync(join(p.dir, 'axis.config.json'), 'utf8'));
      config.agents[0].args = ['-c', script];
      writeFileSync(join(p.dir, 'axis.config.json'), JSON.stringify(config));
      const r = await axis(['run', '--no-score'], p.dir, { ...p.env, AXIS_CONTAINMENT: 'process-group' });
      const out = r.stdout + r.stderr;
      expect(r.code, out).toBe(1);
      expect(r.stdout).toMatch(/Report NOT saved: \S+ \(report\.json could not be written/);
      expect(r.stdout).toContain('lost: report.json');
      expect(r.stdout).not.toContain('View it:');
      expect(r.stdout).not.toContain('report.json (summary)');
    },
    T,
  );
});
