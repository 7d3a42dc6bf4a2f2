/**
 * `axis run --shard k/n --shard-durations <file>` on a file that is not a report.json: refused at once with
 * exit 2, naming it, before any job runs; never a hang (a FIFO), a read without end (/dev/zero) or the
 * file's bytes echoed to the terminal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, NOT_REGULAR_FILES, project } from './helpers.js';

checkLeaks();

const cases = [
  ...NOT_REGULAR_FILES.map(({ name, make, found }) => ({
    name,
    make,
    problem: `expected a regular file, found ${found}`,
  })),
  {
    name: 'JSON with terminal control sequences',
    make: (path: string) => writeFileSync(path, '\x1b[2J\x1b]0;pwned\x07{'),
    problem: 'not a readable report.json (at line 1, column 1: expected a value, found "\\u001b")',
  },
];

describe('--shard-durations on a file that is not a report', () => {
  test.each(cases)('$name is refused at once, naming it', async ({ make, problem }) => {
    const dir = project({
      'axis.config.json': { agents: [{ agent: 'command', name: 'a', command: 'true' }] },
      'scenarios/hello.json': { name: 'Hello', prompt: 'hi', checks: [{ result_matches: 'x' }] },
    });
    make(join(dir, 'dur.json'));
    const out = await axis(['run', '--shard', '1/2', '--shard-durations', 'dur.json'], dir, {
      budgetMs: 15_000,
    });
    expect(out.hung, out.stderr).toBe(false);
    expect(out.stderr).toContain(`--shard-durations dur.json: ${problem}`);
    expect(['\x1b', '\x07'].filter((c) => out.stderr.includes(c))).toEqual([]);
    expect(out.code, out.stderr).toBe(2);
  });
});

describe('--shard-durations on a directory without a report.json', () => {
  test('says the directory holds no report.json, not a bare ENOENT', async () => {
    const dir = project({
      'axis.config.json': { agents: [{ agent: 'command', name: 'a', command: 'true' }] },
      'scenarios/hello.json': { name: 'Hello', prompt: 'hi', checks: [{ result_matches: 'x' }] },
      '.axis/reports/2026-01-01-000000/report.json': { results: [] },
    });
    const out = await axis(['run', '--shard', '1/2', '--shard-durations', '.axis/reports'], dir, {
      budgetMs: 15_000,
    });
    expect(out.code, out.stderr).toBe(2);
    expect(out.stderr).toContain(
      '--shard-durations .axis/reports: a directory without a report.json (expected a report directory such as .axis/reports/<id>, or its report.json)',
    );
  });
});
