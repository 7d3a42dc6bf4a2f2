/**
 * File descriptors AXIS inherited from whoever started it (a CI runner's pipe, a file a wrapper script
 * opened) are not the agent's: with the containment helper they are closed before the program runs.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containment } from '../../../src/exec/contain.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { BIN } from './helpers.js';
import { buildDist } from '../run/helpers.js';
import { shellProject } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const helper = containment().helper !== undefined;

/**
 * `axis run` with `file` open as its fd 200 (not close-on-exec), as a parent process may leave one (Node
 * itself marks its low inherited descriptors close-on-exec, not high ones).
 */
function runWithFd(dir: string, file: string, containment?: string): Promise<number | null> {
  const child = spawn(
    'bash',
    ['-c', 'exec "$0" "$@" 200>"$MARK"', process.execPath, BIN, 'run', '--no-score'],
    {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', MARK: file, AXIS_CONTAINMENT: containment },
      stdio: 'ignore',
    },
  );
  return new Promise((resolve) => child.on('close', resolve));
}

// Every mode whose spawns go through the spawner in C (the default): the helper, and the two fallbacks.
const MODES = [
  { mode: 'the containment helper', containment: undefined },
  { mode: 'the util-linux chain', containment: 'util-linux' },
  { mode: 'the process-group fallback', containment: 'process-group' },
];

describe.skipIf(!helper).each(MODES)('file descriptors AXIS inherited, under $mode', ({ containment }) => {
  it('never reach the agent or its setup script', async () => {
    const list = 'pwd; for f in /proc/$$/fd/*; do readlink "$f"; done; true';
    const dir = shellProject(
      { agent: `cat >/dev/null; ${list}` },
      { fds: { setup: [{ action: 'run_script', command: `(${list}) >> "$AXIS_OUTPUT"` }] } },
    );
    const marker = join(dir, 'inherited-marker.txt');
    expect(await runWithFd(dir, marker, containment)).toBe(0);
    const root = join(dir, '.axis/reports');
    const id = readdirSync(root)[0]!;
    const d = readJson<{ status: string; setupNotes: string; transcript: { result: string } }>(
      join(root, id, 'scenarios/fds/agent.json'),
    );
    expect(d.status).toBe('completed');
    expect(d.transcript.result).toContain('<workspace>'); // the listing really ran (its cwd)
    expect(d.transcript.result).not.toContain('inherited-marker');
    expect(d.setupNotes).not.toContain('inherited-marker');
  }, 90_000);
});
