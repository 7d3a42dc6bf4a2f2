/**
 * An agent's error output quoted in a failed job's reason reaches the terminal and the GitHub annotations
 * without its control characters: an escape sequence in a crashing agent's stderr cannot retitle the
 * window, clear the screen or recolour the log.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

const CRASH = "#!/bin/sh\nprintf 'fatal: \\033]0;pwned\\007\\033[2Jboom\\n' >&2\nexit 3\n";

describe('control characters in a failed job reason', () => {
  it('are left out of the list lines and the github annotations', async () => {
    const dir = makeProject({
      'scenarios/s.json': { name: 'S', prompt: 'p', judge: 'j' },
    });
    const agent = join(dir, 'crash.sh');
    writeFileSync(agent, CRASH);
    chmodSync(agent, 0o755);
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: './scenarios', agents: [{ agent: 'command', name: 'c', command: agent }] }),
    );
    const r = await axis(['run', '--no-score'], dir, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('boom');
    expect(out).toContain('::error title=AXIS s');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0007\u001b]/);
  }, 30_000);
});
