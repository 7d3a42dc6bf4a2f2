/**
 * A skill folder whose entry file is `skill.md` or `Skill.md` (not `SKILL.md`) was passed over without a
 * word: a pack lost that skill, a lone folder read "found none". Agents read SKILL.md only, so such a file
 * is a typo: `axis validate` and `axis run` name it and what was expected (exit 2). A pack's other
 * subfolders (scripts/, docs/) without any SKILL.md stay normal.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProject, removeTempDirs, writeIn } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { HELLO, MARKING_BEFORE_ALL, expectNothingRan } from './helpers.js';

const T = 60_000;
let dir = '';

beforeAll(() => {
  buildDist();
  dir = makeProject({
    'axis.config.json': {
      agents: [
        { agent: 'codex', skills: ['./skills/pack'] },
        { agent: 'gemini', skills: ['./skills/solo'] },
        { agent: 'qwen-code', skills: ['./skills/good'] },
      ],
      settings: { simulate: true },
      beforeAll: MARKING_BEFORE_ALL,
    },
    'skills/pack/one/SKILL.md': '---\nname: one\n---\nOne.\n',
    'skills/pack/two/skill.md': '---\nname: two\n---\nTwo.\n',
    'skills/pack/scripts/run.sh': 'echo hi\n',
    'skills/solo/Skill.md': '---\nname: solo\n---\nSolo.\n',
    'skills/good/one/SKILL.md': '---\nname: one\n---\nOne.\n',
    'skills/good/scripts/run.sh': 'echo hi\n',
    'skills/good/docs/notes.md': 'not a skill\n',
    'scenarios/a.json': HELLO,
  });
  writeIn(dir, 'tapes/a.json', { turns: [{ text: 'hi' }] });
});
afterAll(() => removeTempDirs());

const misnamed = (path: string, folder: string, name: string) =>
  `  axis.config.json: ${path}: expected ${dir}/skills/${folder}/SKILL.md, found ${name}: ` +
  'rename it SKILL.md (agents read that name only, in capitals)\n';

it(
  'validate names each misnamed entry file (file, field, what was expected); a pack with scripts/ passes',
  async () => {
    const v = await axis(['validate'], dir);
    expect(v.code).toBe(2);
    expect(v.stderr).toBe(
      'Invalid configuration (2 problems):\n' +
        misnamed('agents[0].skills[0]', 'pack/two', 'skill.md') +
        misnamed('agents[1].skills[0]', 'solo', 'Skill.md'),
    );
    const good = await axis(['validate', '-a', 'qwen-code'], dir);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
  },
  T,
);

it(
  'run stops before beforeAll and any job, with the same problem',
  async () => {
    const r = await axis(['run', '-a', 'codex', '--no-score'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Invalid configuration (1 problem):\n${misnamed('agents[0].skills[0]', 'pack/two', 'skill.md')}`,
    );
    expectNothingRan(dir);
  },
  T,
);
