/**
 * A copy action's `destination` is a directory inside the workspace (the config directory for
 * beforeAll/afterAll): one that is absolute or whose `..` leaves it can never run, so validation refuses it
 * rather than every job failing at its setup.
 */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { hello, issuesOf, project } from './helpers.js';

const copy = (destination: string) => ({ action: 'copy', match: 'fixtures/**', destination });
const expected = (found: string) =>
  `expected a directory relative to the workspace that stays inside it, found ${JSON.stringify(found)}`;

describe('copy destination', () => {
  test.each(['/tmp', '..', '../x', 'a/../../x', 'C:\\x', '\\\\host\\share'])(
    '%s is refused',
    async (dest) => {
      const dir = project({
        'axis.config.json': { agents: ['claude-code'], beforeAll: [copy(dest)] },
        'scenarios/s.json': { ...hello, setup: [copy(dest)], teardown: [copy(dest)] },
      });
      const issues = (await issuesOf(dir)).map((i) => [i.file, i.path, i.message]);
      expect(issues).toEqual([
        ['axis.config.json', 'beforeAll[0].destination', expected(dest)],
        ['scenarios/s.json', 'setup[0].destination', expected(dest)],
        ['scenarios/s.json', 'teardown[0].destination', expected(dest)],
      ]);
    },
  );

  test.each(['.', './', 'a/b', 'a/../b', 'a/..', '..a', 'x..'])('%s is accepted', async (dest) => {
    const dir = project({
      'axis.config.json': { agents: ['claude-code'] },
      'scenarios/s.json': { ...hello, setup: [copy(dest)] },
    });
    const loaded = await loadConfig(undefined, { cwd: dir });
    expect(loaded.scenarios[0]?.setup).toEqual([copy(dest)]);
  });
});
