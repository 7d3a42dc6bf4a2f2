/**
 * The test sequencer's groups: the files that run real agent CLIs first, other end-to-end files next, unit
 * files last (test/sequencer.ts), so a fresh clone does not start a 40-second file last.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupOf } from '../../sequencer.js';

const ROOT = join(import.meta.dirname, '../../..');

describe('test sequencer groups', () => {
  it('puts each kind of file in its group, on POSIX and Windows paths', () => {
    expect(groupOf(join(ROOT, 'test/e2e/sim/qwen.test.ts'))).toBe(0);
    expect(groupOf(join(ROOT, 'test/e2e/adapters/opencode.test.ts'))).toBe(0);
    expect(groupOf('C:\\axis\\test\\e2e\\mcp\\every-agent.test.ts')).toBe(0);
    expect(groupOf(join(ROOT, 'test/e2e/run/cli.test.ts'))).toBe(1);
    expect(groupOf(join(ROOT, 'test/unit/util/fold.test.ts'))).toBe(2);
    // A unit test about adapters is not a real-CLI file.
    expect(groupOf(join(ROOT, 'test/unit/adapters/binary.test.ts'))).toBe(2);
  });

  it('the real-CLI folders it names exist', () => {
    for (const dir of ['sim', 'adapters', 'mcp'])
      expect(readdirSync(join(ROOT, 'test/e2e', dir)).some((f) => f.endsWith('.test.ts'))).toBe(true);
  });
});
