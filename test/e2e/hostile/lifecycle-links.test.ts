/**
 * What AXIS itself writes into a job's directory after the agent ran (the teardown's `$AXIS_OUTPUT`
 * file, teardown `copy` actions) never follows a link the agent left there out of the job: AXIS runs
 * unsandboxed, so following one would let a sandboxed agent write any file of the user's. And what
 * setup wrote to `$AXIS_OUTPUT` is gone from the job dir before the agent starts.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapProblem } from '../../../src/exec/contain.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { readJson, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { axis as axisWithin } from './helpers.js';
import { shellProject } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 90_000;
const MODES = [
  { mode: 'host', settings: {}, skip: false },
  { mode: 'bwrap sandbox', settings: { sandbox: 'bwrap' }, skip: bwrapProblem() !== null },
];

interface Detail {
  status: string;
  setupNotes?: string;
  teardownNotes?: string;
  teardownError?: string;
}

function detail(dir: string): Detail {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root)[0]!;
  return readJson<Detail>(join(root, id, 'scenarios/links/agent.json'));
}

/** A file of the user's outside every job, and its content. */
function victim(): { path: string; dir: string } {
  const dir = tempDir('axis-victim-');
  const path = join(dir, 'precious.txt');
  writeFileSync(path, 'PRECIOUS\n');
  return { path, dir };
}

describe.each(MODES)('links the agent leaves in its job dir ($mode)', ({ settings, skip }) => {
  it.skipIf(skip)(
    "the teardown's notes file is never opened through a link the agent put in its place",
    async () => {
      const v = victim();
      const dir = shellProject(
        { agent: `cat >/dev/null; ln -s ${v.path} ../teardown-notes.md; echo done` },
        { links: { teardown: [{ action: 'run_script', command: 'echo stopped >> "$AXIS_OUTPUT"' }] } },
        { settings },
      );
      const r = await axis(['run', '--no-score'], dir);
      const d = detail(dir);
      expect(d.status, r.stdout + r.stderr).toBe('completed');
      expect(readFileSync(v.path, 'utf8')).toBe('PRECIOUS\n');
      expect(d.teardownNotes).toBe('stopped');
      expect(d.teardownError).toBeUndefined();
    },
    T,
  );

  it.skipIf(skip)(
    'a teardown copy never writes through a link (a file or a folder) the agent left leading out',
    async () => {
      const v = victim();
      const agent = `cat >/dev/null; ln -s ${v.path} notes.txt; ln -s ${v.dir} sub; echo done`;
      const copy = (match: string) => ({ action: 'copy', match, destination: '.' });
      const dir = shellProject(
        { agent },
        { links: { teardown: [copy('fixtures/notes.txt'), copy('fixtures/**')] } },
        { settings },
        { 'fixtures/notes.txt': 'FIXTURE\n', 'fixtures/sub/precious.txt': 'FIXTURE\n' },
      );
      const r = await axis(['run', '--no-score'], dir);
      const d = detail(dir);
      expect(d.status, r.stdout + r.stderr).toBe('completed');
      expect(readFileSync(v.path, 'utf8')).toBe('PRECIOUS\n');
      expect(d.teardownError).toMatch(
        /^teardown\[0\]: Lifecycle action failed: copy: notes\.txt in the workspace is a link leading outside it/,
      );

      // The folder link: the first copy is dropped, so the second one meets it.
      const dir2 = shellProject(
        { agent },
        { links: { teardown: [copy('fixtures/**')] } },
        { settings },
        { 'fixtures/sub/precious.txt': 'FIXTURE\n' },
      );
      const r2 = await axis(['run', '--no-score'], dir2);
      const d2 = detail(dir2);
      expect(d2.status, r2.stdout + r2.stderr).toBe('completed');
      expect(readFileSync(v.path, 'utf8')).toBe('PRECIOUS\n');
      expect(d2.teardownError).toMatch(/copy: sub in the workspace is a link leading outside it/);
    },
    T,
  );
});

describe('things the agent leaves where a teardown copy writes', () => {
  it(
    'a FIFO in place of a copied file fails the action at once instead of waiting for a reader',
    async () => {
      const dir = shellProject(
        { agent: 'cat >/dev/null; mkfifo notes.txt; echo done' },
        { links: { teardown: [{ action: 'copy', match: 'fixtures/notes.txt', destination: '.' }] } },
        {},
        { 'fixtures/notes.txt': 'FIXTURE\n' },
      );
      const r = await axisWithin(['run', '--no-score'], dir, { budgetMs: 60_000 });
      expect(r.hung, r.stdout + r.stderr).toBe(false);
      const d = detail(dir);
      expect(d.status).toBe('completed');
      expect(d.teardownError).toMatch(
        /copy: notes\.txt in the workspace is a FIFO \(named pipe\), not a regular file/,
      );
    },
    T,
  );
});

describe('setup notes', () => {
  it(
    'the agent never finds the setup notes file in its job dir',
    async () => {
      const dir = shellProject(
        { agent: 'cat >/dev/null; ls -a ..; cat ../setup-notes.md 2>/dev/null; true' },
        {
          links: { setup: [{ action: 'run_script', command: 'echo "the answer is 42" >> "$AXIS_OUTPUT"' }] },
        },
      );
      const r = await axis(['run', '--no-score'], dir);
      const root = join(dir, '.axis/reports');
      const id = readdirSync(root)[0]!;
      const d = detail(dir);
      expect(d.status, r.stdout + r.stderr).toBe('completed');
      expect(d.setupNotes).toBe('the answer is 42');
      const seen = readFileSync(join(root, id, 'scenarios/links/agent.raw.ndjson'), 'utf8');
      expect(seen).toContain('work');
      expect(seen).not.toContain('setup-notes.md');
      expect(seen).not.toContain('the answer is 42');
    },
    T,
  );
});
