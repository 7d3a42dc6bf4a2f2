// The host probes of `axis run` (exec/probe.ts), forked by the spawner or, without it, by AXIS: the
// same outcome either way, and the containment detected through them the same as detected
// synchronously (contain.ts).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  containment,
  detectContainment,
  resetContainment,
  type Containment,
} from '../../../src/exec/contain.js';
import { runProbe } from '../../../src/exec/probe.js';
import { resetSpawner, spawnerPid, stopSpawner } from '../../../src/exec/spawner.js';

afterEach(() => {
  delete process.env.AXIS_SPAWNER;
  delete process.env.AXIS_CONTAIN_HELPER;
  delete process.env.AXIS_CONTAINMENT;
  resetContainment();
});
afterAll(() => stopSpawner());

const WAYS = [
  { way: 'forked by the spawner', spawner: undefined },
  { way: 'spawned by AXIS (AXIS_SPAWNER=off)', spawner: 'off' },
] as const;

describe.each(WAYS)('runProbe, $way', ({ spawner }) => {
  const probe = (...args: Parameters<typeof runProbe>) => {
    if (spawner) process.env.AXIS_SPAWNER = spawner;
    return runProbe(...args);
  };

  it('gives the exit status and stderr, and feeds stdin', async () => {
    const r = await probe('/bin/sh', ['-c', 'read x; echo "got $x" >&2; echo out; exit 7'], 'fstab\n');
    expect(r).toEqual({ status: 7, signal: null, stderr: 'got fstab\n' });
    expect(await probe('/bin/sh', ['-c', 'exit 0'])).toEqual({ status: 0, signal: null, stderr: '' });
  });

  it('a probe that never reads its stdin still gives its status', async () => {
    const r = await probe('/bin/sh', ['-c', 'echo early >&2; exit 1'], 'x'.repeat(200_000));
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('early\n');
  });

  it('a probe killed by a signal has no status', async () => {
    const r = await probe('/bin/sh', ['-c', 'kill -9 $$']);
    expect(r).toMatchObject({ status: null, signal: 'SIGKILL' });
  });

  it('a program that is not there: spawn’s own error', async () => {
    const r = await probe('/nonexistent/axis-probe', []);
    expect(r.status).toBeNull();
    expect(r.error?.message).toBe('spawn /nonexistent/axis-probe ENOENT');
    expect(r.error?.code).toBe('ENOENT');
  });

  it('is forked where it says', async () => {
    const parent = Number((await probe('/bin/sh', ['-c', 'echo $PPID >&2'])).stderr);
    expect(parent).toBe(spawner === 'off' ? process.pid : spawnerPid());
  });
});

describe('runProbe when the spawner dies while the probe runs', () => {
  // A lost spawner makes later spawns start directly (by design); the tests after this one, in any
  // order, get the spawner back.
  afterEach(() => resetSpawner());

  it('runs the probe again here: a lost spawner says nothing of the host', async () => {
    const probe = runProbe('/bin/sh', ['-c', 'sleep 0.4; echo ran >&2; exit 3']);
    await new Promise((r) => setTimeout(r, 150));
    const pid = spawnerPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    expect(await probe).toEqual({ status: 3, signal: null, stderr: 'ran\n' });
  });
});

/** The parts of a containment that decide what a job runs under. */
const shape = (c: Containment) => ({
  mode: c.mode,
  description: c.description,
  prefix: c.prefix,
  tmpPrefix: c.tmpPrefix?.('/x/fstab'),
  space: c.space?.({ fstab: '/x/fstab', hostPid: true }),
});

describe('detectContainment: the synchronous detection’s answer, probed without blocking', () => {
  it.each([
    ['this host', {}],
    ['a helper that fails its self-test', { AXIS_CONTAIN_HELPER: '/bin/false' }],
    ['a helper that is not built', { AXIS_CONTAIN_HELPER: '/nonexistent/axis-contain' }],
    ['the util-linux chain asked for', { AXIS_CONTAINMENT: 'util-linux' }],
    ['process groups asked for', { AXIS_CONTAINMENT: 'process-group' }],
  ])('%s', async (_, env: Record<string, string>) => {
    Object.assign(process.env, env);
    resetContainment();
    const sync = shape(containment());
    resetContainment();
    const probed = await detectContainment(runProbe);
    expect(shape(probed)).toEqual(sync);
    // Cached: the synchronous call now returns the very same object, probing nothing.
    expect(containment()).toBe(probed);
    expect(await detectContainment(runProbe)).toBe(probed);
  });

  it('a probe runner that fails: detected synchronously instead', async () => {
    resetContainment();
    const sync = shape(containment());
    resetContainment();
    const failing = () => Promise.reject(new Error('no probes here'));
    expect(shape(await detectContainment(failing))).toEqual(sync);
  });
});
