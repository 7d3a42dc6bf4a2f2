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
    'skills/pack/skills/write/SKILL.md': '---\nname: named-in-front-matter\ndescription: x\n---\n',
    'skills/empty/README.md': 'no skill here',
  });

  it('resolves local sources: the directory itself, else every subdirectory (and skills/*) with SKILL.md', async () => {
    const res = await resolveSkillSources(['./skills/docs', './skills/pack', './skills/docs'], dir);
    expect([...res.skills.entries()]).toEqual([
      ['./skills/docs', [{ name: 'docs', dir: join(dir, 'skills/docs') }]],
      [
        './skills/pack',
        [
          { name: 'search', dir: join(dir, 'skills/pack/search') },
          { name: 'named-in-front-matter', dir: join(dir, 'skills/pack/skills/write') },
        ],
      ],
    ]);
  });

  it('reports every missing directory or SKILL.md together (exit code 2)', async () => {
    await expect(
      resolveSkillSources(['./skills/empty', './skills/nope', 'not a source'], dir),
    ).rejects.toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: expect.stringMatching(
          /skill "\.\/skills\/empty": no SKILL\.md[\s\S]*skill "\.\/skills\/nope": no such directory[\s\S]*skill "not a source": expected a local path/,
        ),
      }),
    );
  });

  it('a relative path naming a local folder is that folder, not the GitHub shorthand owner/repo', async () => {
    const res = await resolveSkillSources(['skills/docs'], dir);
    expect(res.skills.get('skills/docs')).toEqual([{ name: 'docs', dir: join(dir, 'skills/docs') }]);
  });

  it("a job's skills: config, then agent, then scenario; each source and name once", async () => {
    const res = await resolveSkillSources(['./skills/docs', './skills/pack'], dir);
    const skills = skillsFor([['./skills/docs'], ['./skills/pack', './skills/docs'], ['./skills/pack']], res);
    expect(skills.map((s) => s.name)).toEqual(['docs', 'search', 'named-in-front-matter']);
  });
});
