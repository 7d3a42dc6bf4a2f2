// The one-exec containment helper (native/axis-contain.c, built into dist/native by `npm run build`),
// run directly: its PID namespace and init, its private /tmp from the job's fstab, joining a network
// namespace, its parent-death signal, the unprivileged (user namespace) mode, and its error exits.
// contain-init.test.ts checks the init's signal semantics through AXIS's own spawn.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith } from '../../helpers/leaks.js';
import { sleepToken } from '../../e2e/hostile/runtime-helpers.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';
import { waitFor } from './helpers.js';

const HELPER = join(import.meta.dirname, '../../../dist/native/axis-contain');
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
afterAll(removeTempDirs);

function run(args: string[], opts: { input?: string; uid?: number } = {}): SpawnSyncReturns<string> {
  const [cmd, pre] =
    opts.uid === undefined
      ? [HELPER, []]
      : ['setpriv', ['--reuid', String(opts.uid), '--regid', String(opts.uid), '--clear-groups', HELPER]];
  return spawnSync(cmd, [...pre, ...args], { input: opts.input ?? '', encoding: 'utf8' });
}

const sh = (script: string): string[] => ['--', '/bin/sh', '-c', script];

/** A job dir (readable by nobody) with a `tmp/` holding `marker`, and an fstab binding it onto /tmp. */
function jobTmp(name = 'tmp'): { dir: string; tmp: string; fstab: string } {
  const dir = tempDir('axis-contain-test-');
  chmodSync(dir, 0o755);
  const tmp = join(dir, name);
  mkdirSync(tmp, { mode: 0o777 });
  chmodSync(tmp, 0o777);
  writeFileSync(join(tmp, 'marker'), '');
  const fstab = join(dir, 'fstab');
  writeFileSync(fstab, `# the job's /tmp\n${tmp.replace(/ /g, '\\040')} /tmp none rbind 0 0\n`);
  return { dir, tmp, fstab };
}

/** A process holding its own network namespace (as job-space.ts's holder), as `uid` when given. */
function netHolder(uid?: number): { pid: number; stop: () => void } {
  const user = uid === undefined ? [] : ['--reuid', String(uid), '--regid', String(uid), '--clear-groups'];
  const ns = uid === undefined ? ['--net'] : ['--user', '--map-root-user', '--net'];
  const child = spawn('setpriv', [...user, 'unshare', ...ns, 'sleep', '60'], { stdio: 'ignore' });
  return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

beforeAll(() => {
  expect(statSync(HELPER).isFile(), 'npm run build compiles the helper (cc is installed by pretest)').toBe(
    true,
  );
});

describe('axis-contain', () => {
  it('runs the program as PID 2 of a new PID namespace with a fresh /proc, stdin passed, status kept', () => {
    const r = run(sh('echo $$; readlink /proc/self/ns/pid; ls /proc | grep -c "^[0-9]"; cat; exit 42'), {
      input: 'from stdin\n',
    });
    expect(r.status, r.stderr).toBe(42);
    const [pid, ns, count, input] = r.stdout.trim().split('\n');
    expect(pid).toBe('2');
    expect(ns).not.toBe(readlinkSync('/proc/self/ns/pid'));
    // The init, the shell, and what the shell ran for `ls` and `grep`: nothing of the host.
    expect(Number(count)).toBeLessThanOrEqual(4);
    expect(input).toBe('from stdin');
  });

  it('reports a signal death as 128 + n', () => {
    expect(run(sh('kill -KILL $$')).status).toBe(128 + 9);
    expect(run(sh('kill -TERM $$')).status).toBe(128 + 15);
  });

  it('when the program exits, the kernel ends whatever it left in the namespace', async () => {
    const token = sleepToken();
    const r = run(sh(`setsid sleep ${token} </dev/null >/dev/null 2>&1 & echo started`));
    expect(r.stdout.trim()).toBe('started');
    expect(await waitFor(() => processesWith(token).length === 0, 2000)).toBe(true);
  });

  it('dies with its parent (kill -9), and its whole namespace with it', async () => {
    const [a, b] = [sleepToken(), sleepToken()];
    const parent = spawn(
      'bash',
      ['-c', `"$0" -- sh -c 'setsid sleep ${a} </dev/null >/dev/null 2>&1 & sleep ${b}' & wait`, HELPER],
      { stdio: 'ignore' },
    );
    // The sleeps themselves, not just a command line holding their tokens: bash's own has both from the
    // start, and killed before the helper armed its parent-death signal, the helper would outlive it.
    const comm = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      } catch {
        return ''; // gone meanwhile
      }
    };
    const sleeping = (token: string) => processesWith(token).some((pid) => comm(pid) === 'sleep');
    expect(await waitFor(() => sleeping(a) && sleeping(b), 10_000)).toBe(true);
    parent.kill('SIGKILL');
    expect(await waitFor(() => processesWith(a).length === 0 && processesWith(b).length === 0, 2000)).toBe(
      true,
    );
  });

  it('AXIS_CONTAIN_PARENT names its parent: the program runs without seeing it; any other pid is 125 at once', () => {
    const echo = sh('echo "[${AXIS_CONTAIN_PARENT-unset}]"');
    const env = (v: string) => ({ ...process.env, AXIS_CONTAIN_PARENT: v });
    const ok = spawnSync(HELPER, echo, { encoding: 'utf8', env: env(String(process.pid)) });
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('[unset]\n');
    const other = spawnSync(HELPER, echo, { encoding: 'utf8', env: env('1') });
    expect(other.status).toBe(125);
    expect(other.stdout).toBe('');
    // Empty (a spawn site that did not fill it in): the old check only.
    expect(spawnSync(HELPER, echo, { encoding: 'utf8', env: env('') }).stdout).toBe('[unset]\n');
  });

  it('a helper whose parent died between its fork and the helper start never runs the program', async () => {
    // The subshell is forked by bash, which exits at once; the helper starts 0.3 s later, an orphan.
    const orphan = (named: boolean, token: string) =>
      spawnSync(
        'bash',
        [
          '-c',
          `${named ? 'export AXIS_CONTAIN_PARENT=$BASHPID; ' : ''}` +
            `( sleep 0.3; exec "$0" -- sleep ${token} ) </dev/null >/dev/null 2>&1 & exit 0`,
          HELPER,
        ],
        { stdio: 'ignore' },
      );
    const [a, b] = [sleepToken(), sleepToken()];
    // The sleep itself: the subshell's command line holds the token from the start.
    const sleeping = (token: string) =>
      processesWith(token).some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
        } catch {
          return false; // gone meanwhile
        }
      });
    try {
      orphan(false, a);
      orphan(true, b);
      // Without the variable the before-and-after getppid() check cannot tell: the orphan runs (the
      // window this closes); with it, the helper sees a parent that is not the one named and stops.
      expect(await waitFor(() => sleeping(a), 5000)).toBe(true);
      // Nothing of b is left (its subshell gone, its helper exited 125); unchecked, its sleep would run
      // for minutes like a's.
      expect(await waitFor(() => processesWith(b).length === 0, 5000)).toBe(true);
      expect(sleeping(b)).toBe(false);
    } finally {
      for (const pid of [...processesWith(a), ...processesWith(b)]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already: killing the helper first ends its namespace
        }
      }
    }
  });

  it("binds the job's fstab: its tmp dir is /tmp (fstab escapes decoded), the host's /tmp unseen", () => {
    const { tmp, fstab } = jobTmp('job tmp');
    const r = run(['--fstab', fstab, ...sh('ls /tmp; echo written > /tmp/out')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['marker']);
    expect(statSync(join(tmp, 'out')).size).toBeGreaterThan(0);
    // `--fstab -` reads the lines from stdin (AXIS's start-up probe).
    const piped = run(['--fstab', '-', ...sh('ls /tmp')], { input: readFileSync(fstab, 'utf8') });
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).toBe('marker\nout\n');
  });

  it('fails with 125 and one line naming the fstab when it cannot be read or holds another kind of line', () => {
    const missing = run(['--fstab', '/nonexistent/fstab', ...sh('echo ran')]);
    expect(missing.status).toBe(125);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('axis-contain: cannot open /nonexistent/fstab: No such file or directory\n');
    const { dir } = jobTmp();
    const odd = join(dir, 'odd-fstab');
    writeFileSync(odd, 'tmpfs /tmp tmpfs defaults 0 0\n');
    const bad = run(['--fstab', odd, ...sh('echo ran')]);
    expect(bad.status).toBe(125);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain(`only "none bind|rbind" lines are supported in ${odd}`);
  });

  it('a program that is not there: 127 naming it; bad options: 125 with the usage', () => {
    const r = run(['--', 'no-such-program-axis']);
    expect(r.status).toBe(127);
    expect(r.stderr).toBe('axis-contain: no-such-program-axis: No such file or directory\n');
    const u = run(['--frobnicate', '--', 'true']);
    expect(u.status).toBe(125);
    expect(u.stderr).toMatch(/unknown or incomplete option\nusage: axis-contain/);
    expect(run(['--userns']).status).toBe(125);
  });

  it('--host-pid: the private /tmp only, the program exec’d in the host PID namespace', () => {
    const { fstab } = jobTmp();
    const r = run(['--host-pid', '--fstab', fstab, ...sh('readlink /proc/self/ns/pid; ls /tmp')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([readlinkSync('/proc/self/ns/pid'), 'marker']);
  });

  it.skipIf(!isRoot)("--net joins a holder's network namespace", async () => {
    const holder = netHolder();
    try {
      expect(
        await waitFor(() => readlinkSync(`/proc/${holder.pid}/ns/net`) !== readlinkSync('/proc/self/ns/net')),
      ).toBe(true);
      const r = run(['--net', String(holder.pid), ...sh('readlink /proc/self/ns/net')]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(readlinkSync(`/proc/${holder.pid}/ns/net`));
    } finally {
      holder.stop();
    }
  });

  describe.skipIf(!isRoot)('unprivileged (--userns, run as nobody)', () => {
    it('PID namespace in a user namespace; the program keeps its uid and gid', () => {
      const r = run(['--userns', ...sh('echo $$ $(id -u) $(id -g)')], { uid: NOBODY });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(`2 ${NOBODY} ${NOBODY}`);
    });

    it('with a private /tmp (mounted as root inside, the program mapped back): files it writes are its own', () => {
      const { tmp, fstab } = jobTmp();
      const r = run(['--userns', '--fstab', fstab, ...sh('echo $$ $(id -u); ls /tmp; touch /tmp/mine')], {
        uid: NOBODY,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual([`2 ${NOBODY}`, 'marker']);
      expect(statSync(join(tmp, 'mine')).uid).toBe(NOBODY);
    });

    it("joins a holder's user and network namespaces with --net, the private /tmp and uid kept", async () => {
      const holder = netHolder(NOBODY);
      try {
        expect(
          await waitFor(
            () => readlinkSync(`/proc/${holder.pid}/ns/net`) !== readlinkSync('/proc/self/ns/net'),
          ),
        ).toBe(true);
        const { fstab } = jobTmp();
        const script = 'readlink /proc/self/ns/net; id -u; ls /tmp';
        const r = run(['--userns', '--net', String(holder.pid), '--fstab', fstab, ...sh(script)], {
          uid: NOBODY,
        });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout.trim().split('\n')).toEqual([
          readlinkSync(`/proc/${holder.pid}/ns/net`),
          String(NOBODY),
          'marker',
        ]);
      } finally {
        holder.stop();
      }
    });
  });
});
