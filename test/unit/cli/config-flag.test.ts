/** The `-c` of a printed follow-up command is one shell word, whatever the path holds. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { configFlag, shellWord } from '../../../src/cli/config-flag.js';

const echoed = (word: string) => execFileSync('sh', ['-c', `printf '%s' ${word}`], { encoding: 'utf8' });

describe('configFlag', () => {
  it('is nothing without -c and the path as it is when plain', () => {
    expect(configFlag(undefined)).toBe('');
    expect(configFlag('sub/axis.config.json')).toBe(' -c sub/axis.config.json');
  });

  it.each(['my project/axis.config.json', "it's/$HOME/`x`/a;b", 'a"b\\c', '*.json'])(
    'quotes %j so a shell reads it back as one word',
    (path) => {
      expect(configFlag(path)).toBe(` -c ${shellWord(path)}`);
      expect(echoed(shellWord(path))).toBe(path);
    },
  );
});
