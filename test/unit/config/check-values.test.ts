/**
 * Deterministic checks whose values no run could ever meet are validation errors, not a check that fails
 * every run: an exit code outside 0–255 (a process exits with one byte), a file path holding NUL.
 */
import { describe, expect, test } from 'vitest';
import { issuesOf, project } from './helpers.js';

async function problems(check: Record<string, unknown>): Promise<string[][]> {
  const dir = project({
    'axis.config.json': { agents: ['claude-code'] },
    'scenarios/s.json': { name: 'S', prompt: 'p', checks: [check] },
  });
  return (await issuesOf(dir)).map((i) => [i.path, i.message]);
}

describe('check values that can never be met', () => {
  test.each([256, -1, 1000])('expect_exit %d', async (code) => {
    expect(await problems({ run: 'true', expect_exit: code })).toEqual([
      ['checks[0].expect_exit', `expected an exit code from 0 to 255, found ${code}`],
    ]);
  });

  test('a file path holding NUL', async () => {
    expect(await problems({ file: 'a\u0000b', exists: true })).toEqual([
      ['checks[0].file', 'expected a file path without NUL characters, found "a\\u0000b"'],
    ]);
  });
});
