// The PID-namespace wrapper's init (contain.ts), through the one-exec helper (native/axis-contain.c) and
// the util-linux chain: the program it starts must behave as if spawned directly: default signal
// dispositions, stdin passed through, its exit status kept, and SIGTERM from AXIS reaching it with time to
// clean up before the group is killed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containment, resetContainment } from '../../../src/exec/contain.js';
import { spawnAgentProcess, type SpawnAgentOptions } from '../../../src/exec/process.js';
import { shOptions } from './helpers.js';

const cwd = mkdtempSync(join(tmpdir(), 'axis-init-test-'));
afterAll(() => {
  delete process.env.AXIS_CONTAINMENT;
  resetContainment();
  rmSync(cwd, { recursive: true, force: true });
});

/** Both ways of starting the namespace: AXIS's one-exec helper and the util-linux chain (its fallback). */
const CHAINS = [
  { chain: 'axis-contain', env: undefined, says: /\(axis-contain, one exec; dies with AXIS\)/ },
  {
    chain: 'util-linux',
    env: 'util-linux',
    says: /\(util-linux unshare, dies with AXIS; axis-contain not used/,
  },
] as const;

function sh(script: string, extra: Partial<SpawnAgentOptions> = {}): SpawnAgentOptions {
  return shOptions(cwd, script, { killGraceMs: 3000, ...extra });
}

async function lines(opts: SpawnAgentOptions) {
  const out: string[] = [];
  const res = await spawnAgentProcess({ ...opts, onStdoutLine: (l) => out.push(l) });
  return { res, out };
}

describe.each(CHAINS)('the PID-namespace init ($chain)', ({ env, says }) => {
  beforeAll(() => {
    if (env) process.env.AXIS_CONTAINMENT = env;
    else delete process.env.AXIS_CONTAINMENT;
    resetContainment();
  });

  it('runs inside a PID namespace on this host, started the way -v says (else the cases below test nothing)', () => {
    expect(containment().mode).toBe('pid-namespace');
    expect(containment().description).toMatch(says);
  });

  it('leaves no signal ignored or blocked for the program', async () => {
    const { res, out } = await lines(sh('grep -E "^Sig(Ign|Blk):" /proc/self/status'));
    expect(res.exitCode).toBe(0);
    expect(out).toEqual(['SigBlk:\t0000000000000000', 'SigIgn:\t0000000000000000']);
  });

  it('the program is not PID 1 and reads stdin', async () => {
    const { res, out } = await lines(sh('echo "pid $$"; cat', { stdin: 'from stdin\n' }));
    expect(res.exitCode).toBe(0);
    expect(out[0]).not.toBe('pid 1');
    expect(out).toContain('from stdin');
  });

  it('keeps the exit status', async () => {
    const { res } = await lines(sh('exit 42'));
    expect(res.exitCode).toBe(42);
  });

  it('SIGTERM on timeout reaches the program, whose handler runs to the end', async () => {
    const script = "trap 'sleep 0.3; echo cleaned; exit 7' TERM; echo ready; sleep 30 & wait";
    const { res, out } = await lines(sh(script, { timeoutMs: 500 }));
    expect(res.timedOut).toBe(true);
    expect(out).toEqual(['ready', 'cleaned']);
    expect(res.exitCode).toBe(7);
  });
});

it('an AXIS_CONTAINMENT value it does not know is named in the -v line, not ignored quietly', () => {
  process.env.AXIS_CONTAINMENT = 'utillinux';
  resetContainment();
  expect(containment().description).toMatch(
    /\(AXIS_CONTAINMENT=utillinux ignored: expected process-group or util-linux\)$/,
  );
  expect(containment().mode).toBe('pid-namespace');
});
