/**
 * Hostile files handed to `axis sim`: each is refused at once with exit 2, naming the file and what was
 * expected, never read until memory runs out or waited on forever.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, NOT_REGULAR_FILES, project } from './helpers.js';

checkLeaks();

describe('axis sim replay on a recording that is not a regular file', () => {
  test.each(NOT_REGULAR_FILES)('$name is refused at once, naming it', async ({ make, found }) => {
    const dir = project();
    make(join(dir, 'rec.json'));
    const out = await axis(['sim', 'replay', '--tape', 'rec.json'], dir, { budgetMs: 15_000 });
    expect(out.hung, out.stderr).toBe(false);
    expect(out.stderr).toMatch(
      new RegExp(
        `^ {2}rec\\.json: cannot read recording: expected a regular file, found ${found.replace(/[()]/g, '\\$&')}$`,
        'm',
      ),
    );
    expect(out.code, out.stderr).toBe(2);
  });
});

describe('axis sim record --out', () => {
  test('a directory is refused at start with exit 2, naming it', async () => {
    const dir = project();
    mkdirSync(join(dir, 'tapes'));
    const args = ['sim', 'record', '--upstream', 'http://127.0.0.1:9', '--out', 'tapes'];
    const out = await axis(args, dir, { budgetMs: 15_000 });
    expect(out.hung, out.stderr).toBe(false);
    expect(out.stderr).toContain('cannot write tape tapes: EISDIR');
    expect(out.code, out.stderr).toBe(2);
  });
});
