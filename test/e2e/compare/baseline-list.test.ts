/**
 * `axis baseline list` over a damaged baselines folder: an unreadable file or folder is never reported
 * as "no baselines", and the exit code is the same with `--json` as in the terminal.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

let dir = '';
beforeAll(() => buildDist());
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const project = () => (dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-baseline-list-'))));

describe('axis baseline list', () => {
  it('an unreadable baseline file exits 2 with --json too, the JSON naming it', async () => {
    project();
    mkdirSync(join(dir, '.axis/baselines'), { recursive: true });
    writeFileSync(join(dir, '.axis/baselines/v2.json'), '{bad');
    const text = await axis(['baseline', 'list'], dir);
    expect(text.code).toBe(2);
    const json = await axis(['baseline', 'list', '--json'], dir);
    expect(json.code, json.stderr).toBe(2);
    const list = JSON.parse(json.stdout) as { name: string; error?: string }[];
    expect(list).toEqual([
      expect.objectContaining({ name: 'v2', error: expect.stringContaining('not valid JSON') }),
    ]);
  });

  it('a baselines folder that cannot be read is an error naming it (exit 2), not "No baselines"', async () => {
    project();
    mkdirSync(join(dir, '.axis'));
    writeFileSync(join(dir, '.axis/baselines'), 'not a folder');
    for (const json of [[], ['--json']]) {
      const out = await axis(['baseline', 'list', ...json], dir);
      expect(out.code, out.stdout).toBe(2);
      expect(out.stdout).not.toContain('No baselines');
      expect(out.stderr).toContain('.axis/baselines: cannot list the baselines: ');
      expect(out.stderr).not.toMatch(/internal error/i);
    }
  });
});
