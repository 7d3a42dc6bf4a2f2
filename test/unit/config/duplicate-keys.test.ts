/**
 * A JSON config or scenario with the same key twice in one object: JSON.parse keeps the last one and drops
 * the first without a word, so AXIS names it instead (the file, the key and where it is).
 */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { hello, issuesOf, project } from './helpers.js';

describe('duplicate keys in JSON files', () => {
  test('in the config: named with its line and column', async () => {
    const dir = project({
      'axis.config.json':
        '{\n  "agents": ["claude-code"],\n  "settings": { "runs": 3 },\n  "settings": { "concurrency": 2 }\n}',
      'scenarios/hello.json': hello,
    });
    expect((await issuesOf(dir)).map((i) => [i.file, i.path, i.message])).toEqual([
      [
        'axis.config.json',
        '',
        'duplicate key "settings" at line 4, column 3: JSON keeps only the last one; remove one',
      ],
    ]);
  });

  test('in a scenario, nested and spelled with an escape: named too', async () => {
    const dir = project({
      'axis.config.json': { agents: ['claude-code'] },
      'scenarios/s.json':
        '{"name": "S", "prompt": "p", "judge": "j", "limits": {"tokens": 5, "\\u0074okens": 9}}',
    });
    expect((await issuesOf(dir)).map((i) => [i.file, i.message])).toEqual([
      [
        'scenarios/s.json',
        'duplicate key "tokens" at line 1, column 68: JSON keeps only the last one; remove one',
      ],
    ]);
  });

  test('the same key in different objects is fine', async () => {
    const dir = project({
      'axis.config.json':
        '{"agents": [{"agent": "claude-code", "name": "a"}, {"agent": "codex", "name": "b"}]}',
      'scenarios/hello.json': hello,
    });
    expect((await loadConfig(undefined, { cwd: dir })).config.agents.map((a) => a.name)).toEqual(['a', 'b']);
  });
});
