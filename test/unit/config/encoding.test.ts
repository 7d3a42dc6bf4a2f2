/**
 * JSON configs and scenarios are UTF-8. A file in another encoding (a Latin-1 "café") is named with where
 * its first byte that is not UTF-8 is, instead of that byte silently becoming U+FFFD in a prompt.
 */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { hello, issuesOf, project } from './helpers.js';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('encoding of JSON files', () => {
  test('a byte that is not UTF-8 in a scenario is named with its line and column', async () => {
    const dir = project({ 'axis.config.json': { agents: ['claude-code'] }, 'scenarios/s.json': '' });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${dir}/scenarios/s.json`,
      latin1('{\n  "name": "S",\n  "prompt": "un café", "judge": "j"\n}'),
    );
    expect((await issuesOf(dir)).map((i) => [i.file, i.path, i.message])).toEqual([
      ['scenarios/s.json', '', 'not valid UTF-8 at line 3, column 20 (byte 0xe9): save the file as UTF-8'],
    ]);
  });

  test('in the config too', async () => {
    const dir = project({ 'scenarios/hello.json': hello });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${dir}/axis.config.json`,
      Buffer.from([...Buffer.from('{"name": "'), 0xff, ...Buffer.from('", "agents": ["codex"]}')]),
    );
    expect((await issuesOf(dir)).map((i) => [i.file, i.message])).toEqual([
      ['axis.config.json', 'not valid UTF-8 at line 1, column 11 (byte 0xff): save the file as UTF-8'],
    ]);
  });

  test('a real U+FFFD, other characters and a BOM are kept', async () => {
    const dir = project({
      'axis.config.json': '\ufeff{"agents": ["claude-code"]}',
      'scenarios/s.json': { name: 'S', prompt: 'a \ufffd, é, 漢字, 🎉', judge: 'j' },
    });
    const loaded = await loadConfig(undefined, { cwd: dir });
    expect(loaded.scenarios[0]?.prompt).toBe('a \ufffd, é, 漢字, 🎉');
  });
});
