/**
 * Recycled workspaces (src/exec/workspace-pool.ts) seen from inside: each job of a run at concurrency 1
 * gets the emptied workspace of the one before it, and must see exactly what the first job saw, nothing
 * that job wrote in its home, TMPDIR, private /tmp or workspace.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containment } from '../../../src/exec/contain.js';
import { makeProject, nodeAgent, readJson, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 120_000;

/** Lists the job dir and /tmp as it sees them, then writes everywhere it may. */
const AGENT = `
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const walk = (d, base = d) => readdirSync(d, { withFileTypes: true }).flatMap((e) => {
  const p = join(d, e.name);
  const rel = p.slice(base.length + 1);
  return e.isDirectory() ? [rel + '/', ...walk(p, base)] : [rel];
});
const root = join(process.cwd(), '..');
const out = ['root ' + root, 'tree ' + walk(root).sort().join(','), 'tmp ' + readdirSync('/tmp').sort().join(','),
  'prompt ' + readFileSync(process.env.AXIS_PROMPT_FILE, 'utf8')];
writeFileSync(join(process.env.HOME, '.config', 'secret'), 'job data');
mkdirSync(join(process.env.HOME, '.claude/projects'), { recursive: true });
writeFileSync(join(process.env.HOME, '.claude/projects/creds'), 'job data');
writeFileSync(join(process.env.XDG_STATE_HOME, 'history'), 'job data');
writeFileSync(join(process.env.TMPDIR, 'scratch'), 'job data');
writeFileSync('/tmp/in-private-tmp', 'job data');
writeFileSync(join(root, 'next-to-work'), 'job data');
mkdirSync('node_modules/pkg', { recursive: true });
writeFileSync('node_modules/pkg/index.js', 'job data');
process.stdout.write(out.join('\\n'));
`;

type Detail = { status: string; transcript: { result?: string } };

function project(scenarioExtra: Record<string, unknown> = {}): string {
  const scenarios = Object.fromEntries(
    ['one', 'two', 'three'].map((k) => [
      `scenarios/${k}.json`,
      { name: k, prompt: `look around ${k}`, judge: [{ check: 'it ran' }], ...scenarioExtra },
    ]),
  );
  const dir = makeProject({ 'agent.mjs': AGENT, ...scenarios });
  const config = { scenarios: './scenarios', agents: [nodeAgent('probe', join(dir, 'agent.mjs'))] };
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config));
  return dir;
}

/** What each job saw, in plan order; its workspace path from the `-v` log (reports hold `<job>` instead). */
function seen(dir: string, out: string): Record<string, string>[] {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root)[0]!;
  const paths = Object.fromEntries(
    [...out.matchAll(/\[(\w+) · probe\] workspace (\S+)/g)].map((m) => [m[1], m[2]]),
  );
  return ['one', 'three', 'two'].map((key) => {
    const d = readJson<Detail>(join(root, id, 'scenarios', key, 'probe.json'));
    expect(d.status).toBe('completed');
    const lines = (d.transcript.result ?? '').split('\n');
    const fields = Object.fromEntries(lines.map((l) => [l.split(' ')[0]!, l.slice(l.indexOf(' ') + 1)]));
    // The job's own bind point in its private /tmp carries its name.
    const name = basename(paths[key]!);
    return {
      root: paths[key]!,
      tree: fields.tree!.replaceAll(name, 'JOB'),
      tmp: fields.tmp!.replaceAll(name, 'JOB'),
      prompt: fields.prompt!,
    };
  });
}

const RECYCLED = 'an earlier job’s, emptied';

describe.skipIf(containment().mode !== 'pid-namespace')('recycled workspaces', () => {
  it(
    'each job sees a fresh layout, nothing of the job before it; -v says which were recycled',
    async () => {
      const dir = project();
      const r = await axis(['run', '--no-score', '-v', '--concurrency', '1'], dir, {
        TMPDIR: tempDir('axis-reuse-tmp-'),
      });
      const out = r.stdout + r.stderr;
      expect(r.code, out).toBe(0);
      const [a, b, c] = seen(dir, out);
      expect(b!.tree).toBe(a!.tree);
      expect(c!.tree).toBe(a!.tree);
      expect(b!.tmp).toBe(a!.tmp);
      expect(a!.tree).not.toMatch(/secret|creds|history|scratch|in-private-tmp|next-to-work|node_modules/);
      expect(a!.tree).toContain('home/.config/');
      expect(out.split(RECYCLED).length - 1).toBe(2);
      // The prompt file (written over the spare file of the job before, in b and c) is each job's own.
      expect([a, b, c].map((s) => s!.prompt)).toEqual([
        'look around one',
        'look around three',
        'look around two',
      ]);
    },
    T,
  );

  it(
    'a job whose setup started a script gets a fresh workspace, never a recycled one',
    async () => {
      const tmp = tempDir('axis-reuse-tmp-');
      const dir = project({ setup: [{ action: 'run_script', command: 'true' }] });
      const r = await axis(['run', '--no-score', '-v', '--concurrency', '1'], dir, { TMPDIR: tmp });
      const out = r.stdout + r.stderr;
      expect(r.code, out).toBe(0);
      expect(out).not.toContain(RECYCLED);
      expect(new Set(seen(dir, out).map((s) => s.root)).size).toBe(3);
      expect(readdirSync(tmp)).toEqual([]);
    },
    T,
  );
});
