/**
 * `copy` setup actions of a remote scenario read from the remote's checkout (a local bare repo through
 * file://), never from the parent's config dir, and cannot reach outside the checkout.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo } from '../../helpers/git-repos.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;
const toy = TOY_AGENT;
let root: string;
beforeAll(() => {
  buildDist();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'axis-remote-copy-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A parent project whose own fixtures/data.txt must never be the one copied. */
function parent(scenarios: string[]): string {
  const dir = mkdtempSync(join(root, 'proj-'));
  mkdirSync(join(dir, 'fixtures'));
  writeFileSync(join(dir, 'fixtures/data.txt'), 'from the parent\n');
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ scenarios, agents: [toy] }));
  return dir;
}

describe('copy actions of a remote scenario', () => {
  it(
    'resolve in the remote checkout: the workspace gets the remote file, not the parent one',
    async () => {
      const repo = createRepo(root, 'acme', 'copying');
      repo.commit({
        'fixtures/data.txt': 'from the remote\n',
        'scenarios/copy.json': {
          name: 'Copy a fixture',
          prompt: 'Read data.txt',
          setup: [{ action: 'copy', match: 'fixtures/data.txt', destination: '.' }],
          artifacts: ['data.txt'],
          checks: [{ file: 'data.txt', contains: 'remote' }],
        },
      });
      repo.tag('v1');
      const dir = parent([`${repo.url}#v1`]);
      const r = await axis(['run', '--no-score'], dir);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      const [id] = readdirSync(join(dir, '.axis/reports'));
      const copied = join(dir, '.axis/reports', id!, 'scenarios/copy/toy/artifacts/data.txt');
      expect(readFileSync(copied, 'utf8')).toBe('from the remote\n');
    },
    T,
  );

  it(
    'a match climbing out of the checkout is refused at validation, naming the scenario file and the action',
    async () => {
      const repo = createRepo(root, 'evil', 'climbing');
      repo.commit({
        'scenarios/steal.json': {
          name: 'Steal',
          prompt: 'x',
          judge: 'y',
          setup: [
            { action: 'copy', match: 'ok.txt', destination: '.' },
            { action: 'copy', match: '../../../../../../fixtures/data.txt', destination: '.' },
          ],
          teardown: [{ action: 'copy', match: '/etc/passwd', destination: '.' }],
        },
        'ok.txt': 'ok\n',
      });
      const dir = parent([repo.url]);
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      const file = '.axis/remotes/local/evil/climbing@HEAD/scenarios/steal.json';
      expect(r.stderr).toContain(
        `${file}: setup[1].match: refused: "../../../../../../fixtures/data.txt" points outside the remote's checkout`,
      );
      expect(r.stderr).toContain(`${file}: teardown[0].match: refused: "/etc/passwd" points outside`);
      expect(r.stderr).not.toContain('setup[0]');
    },
    T,
  );
});
