import { describe, expect, it } from 'vitest';
import { findCwd } from '../../../src/sim/codecs/common.js';

describe('findCwd', () => {
  it('reads the working directory each agent states in its prompt', () => {
    const stated: Array<[string, string]> = [
      [
        'You are Claude Code.\nPrimary working directory: /tmp/axis-ab/work\nIs git repo: no',
        '/tmp/axis-ab/work',
      ],
      ['<environment_context>\n  <cwd>/tmp/axis-cd/work</cwd>\n</environment_context>', '/tmp/axis-cd/work'],
      ['**Workspace Directories:**\n  - /tmp/axis-ef/work\n', '/tmp/axis-ef/work'],
      ["I'm currently working in the directory: /tmp/axis-gh/work", '/tmp/axis-gh/work'],
      ['Here is some useful information\nWorking directory: /tmp/axis-ij/work\n', '/tmp/axis-ij/work'],
    ];
    for (const [text, dir] of stated) expect(findCwd(`${'x'.repeat(5_000)}\n${text}`), text).toBe(dir);
  });

  it('says none when the prompt states none, also when a pattern only starts', () => {
    expect(findCwd('Rate the decisions of this run.\n## Interactions\n#1 tool Read')).toBeUndefined();
    // The literal without what must follow it: that pattern fails and the next ones are still tried.
    expect(findCwd('Primary working directory: \n')).toBeUndefined();
    expect(findCwd('<cwd></cwd> then Working directory: /srv/app')).toBe('/srv/app');
  });

  it('keeps the order of the patterns when a prompt states two', () => {
    expect(findCwd('Working directory: /b\nPrimary working directory: /a')).toBe('/a');
  });
});
