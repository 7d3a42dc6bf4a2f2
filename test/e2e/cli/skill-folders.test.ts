/**
 * A local skill folder that does not exist, or holds no SKILL.md (nor a skill pack's), is a config error
 * of `axis validate` and of the start of `axis run` (before beforeAll and any job), naming the file, the
 * field and the folder; only the agents and scenarios selected count.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, writeIn } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { HELLO, MARKING_BEFORE_ALL, expectNothingRan } from './helpers.js';

const T = 60_000;

let dir = '';
beforeAll(() => {
  buildDist();
  dir = makeProject({
    'axis.config.json': {
      agents: [{ agent: 'codex', skills: ['./skills/agent-gone'] }, 'gemini'],
      skills: ['./skills/house'],
      settings: { simulate: true },
      beforeAll: MARKING_BEFORE_ALL,
      profiles: { ci: { skills: ['./skills/ci-gone', './skills/house'] } },
    },
    'skills/house/SKILL.md': '---\nname: house\n---\nHouse style.\n',
    'scenarios/a.json': { ...HELLO, skills: ['./skills/a-gone'] },
    'scenarios/b.json': { ...HELLO, variants: [{ name: 'x', skills: ['./skills/b-file'] }, { name: 'y' }] },
    'scenarios/c.json': { ...HELLO, skills: ['./skills/house'] },
    'scenarios/d.json': HELLO, // no tape: said with the folders, in one list
    'scenarios/off.json': { ...HELLO, skip: true, skills: ['./skills/off-gone'] },
    'skills/b-file': 'a file, not a folder',
  });
  mkdirSync(join(dir, 'tapes'));
  for (const key of ['a', 'b', 'c']) writeIn(dir, `tapes/${key}.json`, { turns: [{ text: 'hi' }] });
});
afterAll(() => removeTempDirs());

const gone = (file: string, path: string, folder: string) =>
  `  ${file}: ${path}: expected a skill folder at ${dir}/skills/${folder}, found nothing there\n`;

describe('local skill folders', () => {
  it(
    'validate names each missing folder of what it selects (file, field path, folder) and missing tapes at once; exit 2',
    async () => {
      const v = await axis(['validate'], dir);
      expect(v.code).toBe(2);
      expect(v.stderr).toBe(
        'Invalid configuration (4 problems):\n' +
          gone('axis.config.json', 'agents[0].skills[0]', 'agent-gone') +
          gone('scenarios/a.json', 'skills[0]', 'a-gone') +
          `  scenarios/b.json: variants[0].skills[0]: expected a skill folder at ${dir}/skills/b-file, found a file\n` +
          `  scenarios/d.json: simulate is on but there is no tape for "d": expected ${dir}/tapes/d.json (write one: docs/simulator.md#tapes; record one: axis sim record; or set "tape")\n`,
      );
    },
    T,
  );

  it(
    "a profile's own skills are named at their path in the profile",
    async () => {
      const v = await axis(['validate', '--profile', 'ci', '-a', 'gemini', '-s', 'c'], dir);
      expect(v.code).toBe(2);
      expect(v.stderr).toBe(
        `Invalid configuration (1 problem):\n${gone('axis.config.json', 'profiles.ci.skills[0]', 'ci-gone')}`,
      );
    },
    T,
  );

  it(
    'unselected agents and scenarios (and skipped ones) need no folder',
    async () => {
      const v = await axis(['validate', '-a', 'gemini', '-s', 'c'], dir);
      expect(v.stderr).toBe('');
      expect(v.code).toBe(0);
    },
    T,
  );

  it(
    'run stops before beforeAll and any job, with the same problems',
    async () => {
      const r = await axis(['run', '-s', 'a', '--no-score'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(gone('axis.config.json', 'agents[0].skills[0]', 'agent-gone'));
      expect(r.stderr).toContain(gone('scenarios/a.json', 'skills[0]', 'a-gone'));
      expect(r.stderr).not.toContain('b-file');
      expectNothingRan(dir);
    },
    T,
  );
});

describe('axis run with missing folders and tapes', () => {
  it(
    'lists both in one go (the tapes were only said on a second run, after the folders were fixed)',
    async () => {
      const r = await axis(['run', '-s', 'a,d', '-a', 'gemini', '--no-score'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'Invalid configuration (2 problems):\n' +
          gone('scenarios/a.json', 'skills[0]', 'a-gone') +
          `  scenarios/d.json: simulate is on but there is no tape for "d": expected ${dir}/tapes/d.json`,
      );
      expect(existsSync(join(dir, 'before-all-ran'))).toBe(false);
    },
    T,
  );
});

describe('local skill folders without SKILL.md', () => {
  let project = '';
  beforeAll(() => {
    project = makeProject({
      'axis.config.json': {
        agents: [
          { agent: 'codex', skills: ['./skills/empty'] },
          { agent: 'gemini', skills: ['./skills/pack'] },
        ],
        skills: ['./skills/nested-pack'],
        settings: { simulate: true },
        beforeAll: MARKING_BEFORE_ALL,
      },
      'skills/pack/one/SKILL.md': '---\nname: one\n---\nOne.\n',
      'skills/nested-pack/skills/two/SKILL.md': '---\nname: two\n---\nTwo.\n',
      'skills/empty/.keep': '',
      'skills/readme-only/README.md': 'no SKILL.md here',
      'skills/too-deep/a/b/SKILL.md': 'two levels down, not in skills/: not a skill of this source',
      'scenarios/a.json': { ...HELLO, skills: ['./skills/readme-only'] },
      'scenarios/b.json': { ...HELLO, variants: [{ name: 'x', skills: ['./skills/too-deep'] }] },
      'scenarios/c.json': HELLO,
      'scenarios/off.json': { ...HELLO, skip: true, skills: ['./skills/readme-only'] },
    });
    for (const key of ['a', 'b', 'c']) writeIn(project, `tapes/${key}.json`, { turns: [{ text: 'hi' }] });
  });
  const empty = (file: string, path: string, folder: string) =>
    `  ${file}: ${path}: expected a skill folder at ${project}/skills/${folder} holding SKILL.md ` +
    `(or a skill pack: */SKILL.md, skills/*/SKILL.md), found none\n`;

  it(
    'validate names each (file, field path, folder) among what it selects; skill packs pass; exit 2',
    async () => {
      const v = await axis(['validate'], project);
      expect(v.code).toBe(2);
      expect(v.stderr).toBe(
        'Invalid configuration (3 problems):\n' +
          empty('axis.config.json', 'agents[0].skills[0]', 'empty') +
          empty('scenarios/a.json', 'skills[0]', 'readme-only') +
          empty('scenarios/b.json', 'variants[0].skills[0]', 'too-deep'),
      );
      const packs = await axis(['validate', '-a', 'gemini', '-s', 'c'], project);
      expect(packs.stderr).toBe('');
      expect(packs.code).toBe(0);
    },
    T,
  );

  it(
    'run stops before beforeAll and any job, with the same problem',
    async () => {
      const r = await axis(['run', '-a', 'gemini', '-s', 'a', '--no-score'], project);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Invalid configuration (1 problem):\n${empty('scenarios/a.json', 'skills[0]', 'readme-only')}`,
      );
      expectNothingRan(project);
    },
    T,
  );
});
