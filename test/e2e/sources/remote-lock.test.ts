/**
 * Concurrent `axis` processes checking out the same remote ref into one `.axis/remotes` folder: each
 * waits for the checkout lock, so none sees a half-replaced checkout and the folder ends intact.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { axis, buildDist, ROOT, TOY_AGENT } from '../run/helpers.js';

const toy = TOY_AGENT;
let root: string;
let repo: TestRepo;
let commit: string;
const FILES = 300;

beforeAll(() => {
  buildDist();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'axis-remote-lock-')));
  repo = createRepo(root, 'acme', 'big-suite');
  const files: Record<string, object> = {};
  // Enough files that a clone takes a while: two unlocked processes would replace the folder under
  // each other (rm, then rename onto a folder another process just put there).
  for (let i = 0; i < FILES; i++)
    files[`scenarios/s${String(i).padStart(3, '0')}.json`] = { name: `S${i}`, prompt: 'p', judge: 'j' };
  repo.commit(files);
  repo.run('checkout', '-q', '-b', 'moving');
  commit = repo.commit({ 'scenarios/extra.json': { name: 'Extra', prompt: 'p', judge: 'j' } });
  repo.run('push', '-q', 'origin', 'moving');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the .axis/remotes checkout lock', () => {
  it('four concurrent axis validate runs on one remote ref all succeed and leave one intact checkout', async () => {
    const dir = mkdtempSync(join(root, 'proj-'));
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [`${repo.url}#moving`], agents: [toy] }),
    );
    const runs = await Promise.all([1, 2, 3, 4].map(() => axis(['validate', '--json'], dir)));
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      const keys = (JSON.parse(r.stdout) as { scenarios: { key: string }[] }).scenarios.map((s) => s.key);
      expect(keys).toHaveLength(FILES + 1);
    }
    const parent = join(dir, '.axis/remotes/local/acme');
    // No lock, no temp clone left; the in-use markers of the finished runs are gone.
    expect(readdirSync(parent).sort()).toEqual(['big-suite@moving', 'big-suite@moving.users']);
    expect(readdirSync(join(parent, 'big-suite@moving.users'))).toEqual([]);
    const checkout = join(parent, 'big-suite@moving');
    expect(readdirSync(join(checkout, 'scenarios'))).toHaveLength(FILES + 1);
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: checkout, encoding: 'utf8' }).trim()).toBe(
      commit,
    );
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: checkout, encoding: 'utf8' })).toBe('');
  }, 180_000);

  it('a checkout a live axis still uses is not replaced when its branch moves; once that run is gone it is', async () => {
    const dir = mkdtempSync(join(root, 'proj-'));
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [`${repo.url}#moving`], agents: [toy] }),
    );
    const checkout = join(dir, '.axis/remotes/local/acme/big-suite@moving');
    const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: checkout, encoding: 'utf8' }).trim();
    // Another axis process that has checked the remote out and is still running (reading from it).
    const script = `
      const { ensureCheckout } = await import(${JSON.stringify(join(ROOT, 'dist/config/git.js'))});
      await ensureCheckout({ url: ${JSON.stringify(repo.url)}, ref: 'moving', dir: ${JSON.stringify(checkout)}, spec: 'x' });
      console.log('ready');
      setInterval(() => {}, 1000);`;
    const user = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((r) => createInterface({ input: user.stdout! }).once('line', r));
    const before = head();
    const moved = repo.commit({ 'scenarios/newer.json': { name: 'Newer', prompt: 'p', judge: 'j' } });
    repo.run('push', '-q', 'origin', 'moving');
    try {
      const r = await axis(['validate'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`not updated: another axis (pid ${user.pid}) is still using the checkout`);
      expect(head()).toBe(before);
    } finally {
      user.kill('SIGKILL');
      await new Promise((r) => user.once('close', r));
    }
    // Killed: its marker stays behind, but its owner is provably gone.
    const r = await axis(['validate'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not updated');
    expect(head()).toBe(moved);
  }, 180_000);
});
