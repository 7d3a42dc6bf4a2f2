/**
 * `settings.sandbox: "bwrap"`: job processes see the host filesystem read-only except the job's
 * workspace, home and tmp, and a private /tmp; where bubblewrap cannot run the run refuses to start
 * (exit 2) instead of running unsandboxed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapProblem } from '../../../src/exec/contain.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { readJson, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { shellProject } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 90_000;
const bwrap = bwrapProblem() === null;

/** Tries each write and reports `ok` or the error, one line per target. */
const PROBE = [
  'cat >/dev/null',
  'try() { if (echo x > "$1") 2>/dev/null; then echo "$2 ok"; else echo "$2 denied"; fi; }',
  'try "$AXIS_PROJECT/escaped.txt" project',
  'try /etc/axis-escaped.txt etc',
  'try ./work.txt workspace',
  'try "$HOME/home.txt" home',
  'try "$TMPDIR/tmp.txt" tmpdir',
  'try /tmp/axis-private-probe.txt slash-tmp',
].join('; ');

describe('settings.sandbox: "bwrap"', () => {
  it.skipIf(!bwrap)(
    'the agent and setup can write only the job dirs; the host and the project stay untouched',
    async () => {
      const dir = shellProject(
        { probe: PROBE },
        {
          box: {
            setup: [{ action: 'run_script', command: 'echo x > "$AXIS_PROJECT/setup-escaped.txt" || true' }],
          },
        },
        { settings: { sandbox: 'bwrap' }, env: ['AXIS_PROJECT'] },
      );
      const r = await axis(['run', '--no-score', '-v'], dir, { AXIS_PROJECT: dir });
      expect(r.stdout + r.stderr).toMatch(/containment: bubblewrap sandbox/);
      const root = join(dir, '.axis/reports');
      const id = readdirSync(root)[0]!;
      const detail = readJson<{ status: string; transcript: { result: string } }>(
        join(root, id, 'scenarios/box/probe.json'),
      );
      expect(detail.status, r.stdout + r.stderr).toBe('completed');
      expect(detail.transcript.result.split('\n')).toEqual([
        'project denied',
        'etc denied',
        'workspace ok',
        'home ok',
        'tmpdir ok',
        'slash-tmp ok',
      ]);
      expect(existsSync(join(dir, 'escaped.txt'))).toBe(false);
      expect(existsSync(join(dir, 'setup-escaped.txt'))).toBe(false);
      expect(existsSync('/etc/axis-escaped.txt')).toBe(false);
      // /tmp inside the sandbox is private: the probe's file never reached the host's /tmp.
      expect(existsSync('/tmp/axis-private-probe.txt')).toBe(false);
    },
    T,
  );

  it(
    'without a usable bwrap the run stops before anything runs: exit 2 naming the setting',
    async () => {
      const dir = shellProject(
        { probe: 'cat >/dev/null; echo ran > ran.txt' },
        { box: {} },
        {
          settings: { sandbox: 'bwrap' },
        },
      );
      // A PATH with node and nothing else: no bwrap to be found.
      const bin = tempDir('axis-nobwrap-');
      mkdirSync(join(bin, 'bin'));
      symlinkSync(process.execPath, join(bin, 'bin', 'node'));
      const r = await axis(['run', '--no-score'], dir, { PATH: join(bin, 'bin') });
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain('settings.sandbox is "bwrap", but bwrap is not installed');
      expect(existsSync(join(dir, '.axis/reports'))).toBe(false);
    },
    T,
  );

  it(
    'an unknown sandbox value is a validation error naming the field',
    async () => {
      const dir = shellProject({ probe: 'cat' }, { box: {} }, { settings: { sandbox: 'docker' } });
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toMatch(
        /settings\.sandbox.*"none" or "bwrap"|settings\.sandbox.*none.*bwrap/,
      );
      expect(readFileSync(join(dir, 'axis.config.json'), 'utf8')).toContain('docker');
    },
    T,
  );
});
