/**
 * The spawner (src/exec/spawner.ts): job processes forked by a small child process, their output read
 * by AXIS straight from the sockets. Real processes and real signals throughout; both containment modes.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { containment, resetContainment } from '../../../src/exec/contain.js';
import { killAll } from '../../../src/exec/groups.js';
import { spawnAgentProcess, type SpawnAgentOptions } from '../../../src/exec/process.js';
import {
  prewarmSpawner,
  resetSpawner,
  setSpawnerNotice,
  spawnerDescription,
  spawnerPid,
  stopSpawner,
} from '../../../src/exec/spawner.js';
import { checkLeaks, processesWith } from '../../helpers/leaks.js';
import { isAlive, shOptions, waitFor } from './helpers.js';
import { sleepToken } from '../../e2e/hostile/runtime-helpers.js';

checkLeaks();
const cwd = mkdtempSync(join(tmpdir(), 'axis-spawner-test-'));
afterAll(() => {
  stopSpawner();
  rmSync(cwd, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.AXIS_SPAWNER;
  resetSpawner();
  setSpawnerNotice(() => {});
});

const sh = (script: string, extra: Partial<SpawnAgentOptions> = {}) => shOptions(cwd, script, extra);

function ppidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** Runs `opts` once through the spawner and once forked by AXIS itself. */
async function bothWays(opts: SpawnAgentOptions) {
  const viaSpawner = await spawnAgentProcess(opts);
  const before = process.env.AXIS_SPAWNER;
  process.env.AXIS_SPAWNER = 'off';
  try {
    return { viaSpawner, direct: await spawnAgentProcess(opts) };
  } finally {
    if (before === undefined) delete process.env.AXIS_SPAWNER;
    else process.env.AXIS_SPAWNER = before;
  }
}

/** Each containment mode with the C spawner (dist/native/axis-spawner) and the Node one. */
const MODES = [
  { mode: 'pid-namespace', env: undefined, kind: 'native', spawner: undefined },
  { mode: 'process-group', env: 'process-group', kind: 'native', spawner: undefined },
  { mode: 'pid-namespace', env: undefined, kind: 'node', spawner: 'node' },
  { mode: 'process-group', env: 'process-group', kind: 'node', spawner: 'node' },
] as const;

/** This process's descriptors above stderr that a child would inherit (no close-on-exec flag). */
function inheritedFds(): number[] {
  const O_CLOEXEC = 0o2000000;
  return readdirSync('/proc/self/fd')
    .map(Number)
    .filter((fd) => {
      if (fd <= 2) return false;
      try {
        const flags = /^flags:\s+(\d+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
        return flags !== undefined && (parseInt(flags, 8) & O_CLOEXEC) === 0;
      } catch {
        return false; // closed meanwhile
      }
    });
}

describe.each(MODES)('$kind spawner, containment $mode', ({ mode, env, kind, spawner }) => {
  // A spawner of the other kind must not serve these tests.
  beforeAll(() => stopSpawner());
  afterAll(() => stopSpawner());
  beforeEach(() => {
    if (spawner) process.env.AXIS_SPAWNER = spawner;
  });
  it('the spawner in use is the one of this kind', async () => {
    await spawnAgentProcess(sh('true'));
    const cmdline = readFileSync(`/proc/${spawnerPid()!}/cmdline`, 'utf8');
    if (kind === 'native') expect(cmdline.split('\0')[0]).toMatch(/dist\/native\/axis-spawner$/);
    else expect(cmdline).toContain('spawner-main.js');
    // `-v` names the program in use.
    expect(spawnerDescription()).toBe(
      `spawner: job processes are forked by a small spawner process (${
        kind === 'native' ? 'dist/native/axis-spawner' : 'dist/exec/spawner-main.js'
      }), not by the AXIS process`,
    );
  });

  const setMode = () => {
    if (env) process.env.AXIS_CONTAINMENT = env;
    else delete process.env.AXIS_CONTAINMENT;
    resetContainment();
  };
  const skip = mode === 'pid-namespace' && (setMode(), containment().mode !== mode);

  it.skipIf(skip)('the spawner forks the job; stdin, stdout, stderr and the exit code arrive', async () => {
    setMode();
    let parent = 0;
    const lines: string[] = [];
    const res = await spawnAgentProcess(
      sh('read x; echo "got $x"; echo "to stderr" >&2; sleep 0.2; exit 7', {
        stdin: 'hello\n',
        onSpawn: (pid) => (parent = ppidOf(pid)),
        onStdoutLine: (l) => lines.push(l),
      }),
    );
    expect(res.spawnError).toBeUndefined();
    expect(parent).toBe(spawnerPid());
    expect(parent).not.toBe(process.pid);
    expect(lines).toEqual(['got hello']);
    expect(res.stderrTail).toBe('to stderr\n');
    expect(res.exitCode).toBe(7);
  });

  it.skipIf(skip)('the job sees what a directly forked one sees: env, cwd, fds, signals, group', async () => {
    setMode();
    // Tags differ per spawn and socket inodes per process; everything else must be equal.
    const script = [
      'env | grep -v AXIS_PROCESS_TAG | sort',
      'pwd',
      'ls -l /proc/self/fd/ | sed -n "s/.* \\([0-9]*\\) -> \\([a-z]*\\).*/\\1 \\2/p"',
      'grep -E "^(Sig(Blk|Ign)|Umask|Cap(Inh|Prm|Eff))" /proc/self/status',
      'ps -o pid= -o pgid= -o sid= -p $$ | awk \'{print ($1==$2) " " ($1==$3)}\'',
      'test -t 0 || echo stdin-not-a-tty',
    ].join('; ');
    const out = (lines: string[]) => ({ onStdoutLine: (l: string) => lines.push(l) });
    const a: string[] = [];
    const b: string[] = [];
    await spawnAgentProcess(sh(script, out(a)));
    process.env.AXIS_SPAWNER = 'off';
    await spawnAgentProcess(sh(script, out(b)));
    expect(a.length).toBeGreaterThan(8);
    // Less the descriptors this process inherited (not close-on-exec, above stderr): a direct fork
    // passes them on; the C spawner and the containment helper close them (axis-spawner.c,
    // axis-contain.c). Only the Node spawner without the helper cannot (Node has no fcntl).
    const leaked = (l: string) => inheritedFds().some((fd) => l.startsWith(`${fd} `));
    if (kind === 'node' && mode === 'process-group') expect(a).toEqual(b);
    else {
      expect(a.filter(leaked)).toEqual([]);
      expect(a).toEqual(b.filter((l) => !leaked(l)));
    }
    // Without a namespace, the program leads its own group and session (`detached`), as before.
    if (mode === 'process-group') expect(a).toContain('1 1');
  });

  it.skipIf(skip)(
    '20 MB of stdout arrives whole and in order',
    async () => {
      setMode();
      const hash = createHash('sha256');
      let count = 0;
      const script = 'i=0; while [ $i -lt 20000 ]; do printf "%0999d\\n" $i; i=$((i+1)); done';
      const res = await spawnAgentProcess(
        sh(script, {
          maxStdoutBytes: 64 * 1024 * 1024,
          onStdoutLine: (l) => {
            count++;
            hash.update(l);
          },
        }),
      );
      const expected = createHash('sha256');
      for (let i = 0; i < 20000; i++) expected.update(String(i).padStart(999, '0'));
      expect(res.stdoutBytes).toBe(20_000_000);
      expect(count).toBe(20000);
      expect(hash.digest('hex')).toBe(expected.digest('hex'));
    },
    60_000,
  );

  it.skipIf(skip)('a missing or non-executable command fails with the same message as before', async () => {
    setMode();
    const missing = await bothWays({ ...sh(''), command: 'axis-no-such-command', args: [] });
    expect(missing.viaSpawner.spawnError).toMatch(/command not found \(ENOENT\)/);
    expect(missing.viaSpawner.spawnError).toBe(missing.direct.spawnError);
    const file = join(cwd, 'not-executable.sh');
    writeFileSync(file, '#!/bin/sh\necho hi\n');
    chmodSync(file, 0o644);
    const denied = await bothWays({ ...sh(''), command: file, args: [] });
    expect(denied.viaSpawner.spawnError).toMatch(/permission denied \(EACCES\)/);
    expect(denied.viaSpawner.spawnError).toBe(denied.direct.spawnError);
    const badCwd = await bothWays({ ...sh('true'), cwd: join(cwd, 'gone') });
    expect(badCwd.viaSpawner.spawnError).toMatch(/working directory does not exist/);
    expect(badCwd.viaSpawner.spawnError).toBe(badCwd.direct.spawnError);
  });

  it.skipIf(skip)(
    'spawner killed mid-job: the job fails loudly, nothing is left, later jobs start directly',
    async () => {
      setMode();
      const notices: string[] = [];
      setSpawnerNotice((m) => notices.push(m));
      const token = sleepToken();
      let jobPid = 0;
      const running = spawnAgentProcess(
        sh(`sleep ${token} & wait`, { onSpawn: (pid) => (jobPid = pid), killGraceMs: 200 }),
      );
      await waitFor(() => jobPid > 0 && processesWith(token).length > 0, 10_000);
      const spawner = spawnerPid()!;
      expect(ppidOf(jobPid)).toBe(spawner);
      process.kill(spawner, 'SIGKILL');
      const res = await running;
      expect(res.spawnError).toMatch(
        /AXIS's spawner process \(pid \d+\) failed: it exited \(signal SIGKILL\)/,
      );
      expect(res.spawnError).toMatch(/this job's process was killed/);
      expect(await waitFor(() => processesWith(token).length === 0, 5000)).toBe(true);
      expect(notices.join('\n')).toMatch(/job processes now start directly from the AXIS process/);
      expect(spawnerDescription()).toMatch(/^spawner: off \(the spawner failed/);

      let parent = 0;
      const next = await spawnAgentProcess(sh('echo ok', { onSpawn: (pid) => (parent = ppidOf(pid)) }));
      expect(next.exitCode).toBe(0);
      expect(parent).toBe(process.pid);
      expect(spawnerPid()).toBeUndefined();
    },
  );
});

describe('spawner lifetime', () => {
  it('goes away when idle and starts again on the next job', async () => {
    await spawnAgentProcess(sh('true'));
    const first = spawnerPid()!;
    expect(isAlive(first)).toBe(true);
    expect(await waitFor(() => !isAlive(first), 5000)).toBe(true);
    expect(spawnerPid()).toBeUndefined();
    await spawnAgentProcess(sh('true'));
    expect(spawnerPid()).toBeGreaterThan(0);
    expect(spawnerPid()).not.toBe(first);
  });

  it("the spawner's environment holds none of AXIS's (secrets included), nor its stream token", async () => {
    stopSpawner();
    process.env.AXIS_TEST_SPAWNER_SECRET = 'sk-not-for-the-spawner';
    try {
      await spawnAgentProcess(sh('true'));
    } finally {
      delete process.env.AXIS_TEST_SPAWNER_SECRET;
    }
    const names = readFileSync(`/proc/${spawnerPid()!}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => kv.slice(0, kv.indexOf('=')))
      .sort();
    expect(names).toEqual(['AXIS_PROCESS_TAG', 'NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE', 'PATH']);
  });

  it('killAll() takes the spawner along, and a job started right after still runs (a fresh spawner)', async () => {
    await spawnAgentProcess(sh('true'));
    const first = spawnerPid()!;
    expect(isAlive(first)).toBe(true);
    killAll('SIGKILL');
    const lines: string[] = [];
    const res = await spawnAgentProcess(sh('echo after', { onStdoutLine: (l) => lines.push(l) }));
    expect(res.spawnError).toBeUndefined();
    expect(res.exitCode).toBe(0);
    expect(lines).toEqual(['after']);
    expect(spawnerPid()).not.toBe(first);
    expect(await waitFor(() => !isAlive(first))).toBe(true);
  });

  it('prewarmed before the first job: that job is forked by it; unused, it goes away when idle', async () => {
    stopSpawner();
    prewarmSpawner();
    const warm = spawnerPid()!;
    expect(warm).toBeGreaterThan(0);
    prewarmSpawner(); // one is running: nothing more starts
    expect(spawnerPid()).toBe(warm);
    let parent = 0;
    await spawnAgentProcess(sh('sleep 0.2', { onSpawn: (pid) => (parent = ppidOf(pid)) }));
    expect(parent).toBe(warm);
    stopSpawner();
    expect(await waitFor(() => !isAlive(warm), 5000)).toBe(true);
    prewarmSpawner();
    const unused = spawnerPid()!;
    expect(unused).not.toBe(warm);
    // Idle from the start: it keeps nothing alive and stops by itself.
    expect(await waitFor(() => !isAlive(unused), 5000)).toBe(true);
    expect(spawnerPid()).toBeUndefined();
  });

  it('what it says before anyone listens reaches the next listener (the run log set up later)', async () => {
    stopSpawner();
    setSpawnerNotice(undefined);
    prewarmSpawner();
    const pid = spawnerPid()!;
    const heard: string[] = [];
    setSpawnerNotice((m) => heard.push(m));
    expect(heard).toEqual([`spawner: started (pid ${pid})`]);
    await spawnAgentProcess(sh('true'));
    expect(heard).toHaveLength(1); // the same spawner: nothing new to say
  });

  it('AXIS_SPAWNER=off: AXIS forks the job itself', async () => {
    process.env.AXIS_SPAWNER = 'off';
    stopSpawner();
    let parent = 0;
    await spawnAgentProcess(sh('true', { onSpawn: (pid) => (parent = ppidOf(pid)) }));
    expect(parent).toBe(process.pid);
    prewarmSpawner();
    expect(spawnerPid()).toBeUndefined();
    expect(spawnerDescription()).toBe(
      'spawner: off (AXIS_SPAWNER=off); job processes are forked by the AXIS process itself',
    );
  });

  it('an AXIS_SPAWNER value that means nothing is named in the -v line, and the C spawner is used', async () => {
    stopSpawner();
    process.env.AXIS_SPAWNER = 'nodejs';
    await spawnAgentProcess(sh('true'));
    expect(readFileSync(`/proc/${spawnerPid()!}/cmdline`, 'utf8').split('\0')[0]).toMatch(
      /dist\/native\/axis-spawner$/,
    );
    expect(spawnerDescription()).toBe(
      'spawner: job processes are forked by a small spawner process (dist/native/axis-spawner), not by ' +
        'the AXIS process (AXIS_SPAWNER=nodejs ignored: expected off or node)',
    );
  });
});
