/**
 * `axis validate` and `axis run` list every problem in one pass: an invalid scenario file does not hide
 * another selected scenario's missing tape or skill folder (they were only said on a second run, after
 * the first was fixed). An invalid config file still stops there: nothing sound is left to plan from.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/runner/run.js';
import { ConfigError } from '../../../src/util/errors.js';
import { makeProject, removeTempDirs, writeIn } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { HELLO } from './helpers.js';

const T = 60_000;

let dir = '';
beforeAll(() => {
  buildDist();
  dir = makeProject({
    'axis.config.json': { agents: ['codex'], settings: { simulate: true } },
    'scenarios/bad.json': { ...HELLO, judge: [{ check: 'ok', weight: -1 }] },
    'scenarios/notape.json': HELLO,
    'scenarios/noskill.json': { ...HELLO, skills: ['./skills/gone'] },
    'scenarios/fine.json': HELLO,
  });
  for (const key of ['bad', 'noskill', 'fine'])
    writeIn(dir, `tapes/${key}.json`, { turns: [{ text: 'hi' }] });
});
afterAll(() => removeTempDirs());

const bad = '  scenarios/bad.json: judge[0].weight: expected a weight ≥ 0, found -1\n';
const noTape = () =>
  `  scenarios/notape.json: simulate is on but there is no tape for "notape": expected ${dir}/tapes/notape.json (write one: docs/simulator.md#tapes; record one: axis sim record; or set "tape")\n`;
const noSkill = () =>
  `  scenarios/noskill.json: skills[0]: expected a skill folder at ${dir}/skills/gone, found nothing there\n`;

describe('axis validate with an invalid scenario file', () => {
  it(
    "also lists the other scenarios' missing tapes and skill folders, in one go; exit 2",
    async () => {
      const v = await axis(['validate'], dir);
      expect(v.code).toBe(2);
      expect(v.stderr).toBe(`Invalid configuration (3 problems):\n${bad}${noSkill()}${noTape()}`);
      const json = await axis(['validate', '--json'], dir);
      expect(json.code).toBe(2);
      const doc = JSON.parse(json.stdout) as {
        valid: boolean;
        issues: Array<{ file: string; path: string }>;
      };
      expect(doc.valid).toBe(false);
      expect(doc.issues.map((i) => `${i.file}:${i.path}`)).toEqual([
        'scenarios/bad.json:judge[0].weight',
        'scenarios/noskill.json:skills[0]',
        'scenarios/notape.json:',
      ]);
    },
    T,
  );

  it(
    'lists only what the filters select (an unselected scenario needs no tape)',
    async () => {
      const v = await axis(['validate', '-s', 'bad,notape'], dir);
      expect(v.stderr).toBe(`Invalid configuration (2 problems):\n${bad}${noTape()}`);
      const only = await axis(['validate', '-s', 'bad'], dir);
      expect(only.stderr).toBe(`Invalid configuration (1 problem):\n${bad}`);
      expect(only.code).toBe(2);
    },
    T,
  );

  it(
    'an invalid config file is said alone: what it would run cannot be known',
    async () => {
      const project = makeProject({
        'axis.config.json': { agents: ['codex'], settings: { simulate: true, concurrency: 0 } },
        'scenarios/notape.json': HELLO,
      });
      const v = await axis(['validate'], project);
      expect(v.code).toBe(2);
      expect(v.stderr).toMatch(
        /^Invalid configuration \(1 problem\):\n {2}axis\.config\.json: settings\.concurrency: /,
      );
    },
    T,
  );

  it(
    'axis run lists the same problems in one go, for what its filters select; exit 2, no agent run',
    async () => {
      const r = await axis(['run'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Invalid configuration (3 problems):\n${bad}${noSkill()}${noTape()}`);
      const some = await axis(['run', '-s', 'bad,notape'], dir);
      expect(some.code).toBe(2);
      expect(some.stderr).toBe(`Invalid configuration (2 problems):\n${bad}${noTape()}`);
      expect(existsSync(join(dir, '.axis/reports'))).toBe(false);
    },
    T,
  );

  it('run() from the library lists them in one go too', async () => {
    const err = await run({ configPath: dir, cwd: dir, scenarios: 'bad,notape' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues.map((i) => `${i.file}:${i.path}`)).toEqual([
      'scenarios/bad.json:judge[0].weight',
      'scenarios/notape.json:',
    ]);
  });

  it(
    "an agent's model its adapter cannot use is listed with the missing skill folders and tapes, by both commands",
    async () => {
      const project = makeProject({
        'axis.config.json': {
          agents: [{ agent: 'opencode', model: 'gpt-4' }],
          skills: ['./skills/gone'],
        },
        'scenarios/fine.json': HELLO,
      });
      const model =
        '  axis.config.json: agents "opencode|gpt-4": model: expected provider/model for opencode (e.g. "openai/gpt-4" or "anthropic/gpt-4"), found "gpt-4": a bare model name works only with OPENAI_BASE_URL set\n';
      const skill = `  axis.config.json: skills[0]: expected a skill folder at ${project}/skills/gone, found nothing there\n`;
      const env = { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: 'sk-test' };
      for (const args of [['validate'], ['run']]) {
        const r = await axis(args, project, env);
        expect(r.code, args[0]).toBe(2);
        expect(r.stderr, args[0]).toBe(`Invalid configuration (2 problems):\n${skill}${model}`);
      }
    },
    T,
  );
});
