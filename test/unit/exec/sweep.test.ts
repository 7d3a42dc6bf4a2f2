import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newTag, selfOwner, startTime, statFields, TAG_VAR } from '../../../src/exec/contain.js';
import { sweepLeftovers } from '../../../src/exec/sweep.js';
import { OWNER_FILE } from '../../../src/exec/workspace.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';
import { waitFor } from './helpers.js';

afterAll(removeTempDirs);

/** A tag of an AXIS that is provably dead: this process's pid with a start time it never had. */
function deadTag(): string {
  const me = selfOwner()!;
  return `${me.pid}.${me.start + 1_000_000}.${me.boot}.${me.pidns.replace(/\D/g, '')}.1`;
}

async function taggedSleep(tag: string) {
  const child = spawn('sleep', ['30'], { env: { PATH: process.env.PATH, [TAG_VAR]: tag }, stdio: 'ignore' });
  await waitFor(() => startTime(child.pid!) !== undefined);
  return child;
}

describe.skipIf(process.platform !== 'linux')('the start-up sweep', () => {
  it('kills processes of a dead AXIS and removes its temp dirs; a live owner and unmarked dirs are left alone', async () => {
    const orphan = await taggedSleep(deadTag());
    const live = await taggedSleep(newTag()!);
    const tmp = tempDir('axis-sweep-unit-');
    const me = selfOwner()!;
    const dead = join(tmp, 'axis-dead');
    const alive = join(tmp, 'axis-alive');
    const unmarked = join(tmp, 'axis-unmarked');
    for (const d of [dead, alive, unmarked]) mkdirSync(join(d, 'work'), { recursive: true });
    writeFileSync(join(dead, OWNER_FILE), JSON.stringify({ ...me, start: me.start + 1_000_000 }));
    writeFileSync(join(alive, OWNER_FILE), JSON.stringify(me));
    try {
      const exited = new Promise((resolve) => orphan.on('exit', (_code, signal) => resolve(signal)));
      const swept = await sweepLeftovers(tmp);
      // Any AXIS run on the machine sweeps the same orphan (rightly): if this sweep did not kill it, another
      // one must have, so it is gone or a zombie by now.
      if (!swept.processes.includes(orphan.pid!))
        expect([undefined, 'Z']).toContain(statFields(orphan.pid!)?.[0]);
      expect(await exited).toBe('SIGKILL');
      expect(swept.processes).not.toContain(live.pid);
      expect(live.exitCode ?? live.signalCode).toBeNull();
      expect(swept.dirs).toEqual([dead]);
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(alive) && existsSync(unmarked)).toBe(true);
    } finally {
      orphan.kill('SIGKILL');
      live.kill('SIGKILL');
    }
  });

  it('only real directories with a plain, small marker count: links, files and odd markers are left alone', async () => {
    const tmp = tempDir('axis-sweep-kinds-');
    const outside = tempDir('axis-sweep-outside-');
    const me = selfOwner()!;
    const deadMarker = JSON.stringify({ ...me, start: me.start + 1_000_000 });
    const target = join(outside, 'target');
    mkdirSync(target);
    writeFileSync(join(target, OWNER_FILE), deadMarker);
    writeFileSync(join(outside, 'marker'), deadMarker);
    // A link to a dead AXIS's dir, a plain file, a marker that is a link, a marker too big to be one.
    symlinkSync(target, join(tmp, 'axis-link'));
    writeFileSync(join(tmp, 'axis-file'), deadMarker);
    mkdirSync(join(tmp, 'axis-linked-marker'));
    symlinkSync(join(outside, 'marker'), join(tmp, 'axis-linked-marker', OWNER_FILE));
    mkdirSync(join(tmp, 'axis-big-marker'));
    writeFileSync(join(tmp, 'axis-big-marker', OWNER_FILE), deadMarker + ' '.repeat(5000));
    // Not named axis-*: never looked at, marker or not.
    mkdirSync(join(tmp, 'other-dead'));
    writeFileSync(join(tmp, 'other-dead', OWNER_FILE), deadMarker);
    const dead = join(tmp, 'axis-dead');
    mkdirSync(dead);
    writeFileSync(join(dead, OWNER_FILE), deadMarker);

    const swept = await sweepLeftovers(tmp);
    expect(swept.dirs).toEqual([dead]);
    for (const name of ['axis-link', 'axis-file', 'axis-linked-marker', 'axis-big-marker', 'other-dead'])
      expect(existsSync(join(tmp, name)), name).toBe(true);
    expect(existsSync(join(target, OWNER_FILE)) && existsSync(join(outside, 'marker'))).toBe(true);
  });
});
