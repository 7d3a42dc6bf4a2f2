/**
 * Concurrent `axis` processes checking out the same remote ref into one `.axis/remotes` folder: each
 * waits for the checkout lock, so none sees a half-replaced checkout and the folder ends intact.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const toy = {
  agent: 'command',
  name: 'toy',
  command: join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh'),
  output: 'ndjson',
};
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
    expect(readdirSync(parent)).toEqual(['big-suite@moving']);
    const checkout = join(parent, 'big-suite@moving');
    expect(readdirSync(join(checkout, 'scenarios'))).toHaveLength(FILES + 1);
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: checkout, encoding: 'utf8' }).trim()).toBe(
      commit,
    );
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: checkout, encoding: 'utf8' })).toBe('');
  }, 180_000);
});
