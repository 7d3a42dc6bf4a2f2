import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveSkillSources, skillsFor } from '../../../src/runner/skills.js';
import { makeProject, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

describe('skill sources', () => {
  const dir = makeProject({
    'skills/docs/SKILL.md': '# docs',
    'skills/pack/.hidden/SKILL.md': '# hidden',
    'skills/pack/search/SKILL.md': '# search',
    'skills/empty/README.md': 'no skill here',
  });

  it('resolves local sources: the directory itself, else its first subdirectory with SKILL.md', () => {
    const res = resolveSkillSources(['./skills/docs', './skills/pack', 'netlify/axis', './skills/docs'], dir);
    expect([...res.skills.entries()]).toEqual([
      ['./skills/docs', { name: 'docs', dir: join(dir, 'skills/docs') }],
      ['./skills/pack', { name: 'search', dir: join(dir, 'skills/pack/search') }],
    ]);
    expect(res.skipped).toEqual(['netlify/axis']);
  });

  it('reports every missing directory or SKILL.md together (exit code 2)', () => {
    expect(() => resolveSkillSources(['./skills/empty', './skills/nope'], dir)).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: expect.stringMatching(
          /skill "\.\/skills\/empty": no SKILL\.md[\s\S]*skill "\.\/skills\/nope": no such directory/,
        ),
      }),
    );
  });

  it("a job's skills: config, then agent, then scenario; each source and name once", () => {
    const res = resolveSkillSources(['./skills/docs', './skills/pack', 'owner/repo'], dir);
    const skills = skillsFor(
      [['./skills/docs'], ['./skills/pack', './skills/docs', 'owner/repo'], ['./skills/pack']],
      res,
    );
    expect(skills.map((s) => s.name)).toEqual(['docs', 'search']);
  });
});
