/**
 * Remote skills from a real git repository (a bare repo via file://): a multi-skill pack checked out
 * into .axis/skills-cache, reused until --refresh-skills, and installed where each real CLI reads it —
 * proved by the skill's name and description appearing in what Claude Code, Codex and Gemini send to the
 * model (the simulator sees every request body).
 */
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSkillSources } from '../../../src/runner/skills.js';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { explain, PROMPT, runCliCase, successTape } from '../adapters/cli-harness.js';
import { agentEntry } from '../adapters/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 150_000;
const dirs: string[] = [];
const tmp = (p: string) => {
  const d = realpathSync(mkdtempSync(join(tmpdir(), p)));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nUse the house style.\n`;

let repo: TestRepo;
let project: string;
beforeAll(() => {
  buildDist();
  repo = createRepo(tmp('axis-skill-git-'), 'acme', 'skill-pack');
  repo.commit({
    'skills/release-notes/SKILL.md': skill(
      'release-notes',
      'Writes release notes the acme way, zebra-marker-71.',
    ),
    'skills/changelog/SKILL.md': skill('changelog', 'Keeps CHANGELOG.md tidy.'),
    'README.md': 'A pack of skills.\n',
  });
  repo.tag('v1');
  project = tmp('axis-skill-proj-');
});

describe('remote skills', () => {
  it('a skills/*/SKILL.md pack at a tag: every skill, cached under .axis/skills-cache/<host>/<owner>/<repo>@<ref>', async () => {
    const res = await resolveSkillSources([`${repo.url}#v1`], project);
    const dir = join(project, '.axis/skills-cache/local/acme/skill-pack@v1');
    expect(res.skills.get(`${repo.url}#v1`)).toEqual([
      { name: 'changelog', dir: join(dir, 'skills/changelog') },
      { name: 'release-notes', dir: join(dir, 'skills/release-notes') },
    ]);
    await expect(resolveSkillSources([`${repo.url}#v7`], project)).rejects.toThrow('ref "v7" does not exist');
  });

  it('two skill sources that would share one cache folder are refused, not one replacing the other', async () => {
    const twins = ['axis-skill-a-', 'axis-skill-b-'].map((p, i) => {
      const r = createRepo(tmp(p), 'acme', 'twin');
      r.commit({ [`s${i}/SKILL.md`]: skill(`s${i}`, 'd') });
      return r;
    });
    const dir = tmp('axis-skill-twins-');
    await expect(resolveSkillSources([twins[0]!.url, twins[1]!.url], dir)).rejects.toThrow(
      `skill "${twins[1]!.url}": it and "${twins[0]!.url}" would share the checkout .axis/skills-cache/local/acme/twin@HEAD`,
    );
  });

  it('a fetched pack with a skill.md (not SKILL.md) is named, not passed over without a word (exit 2)', async () => {
    const r = createRepo(tmp('axis-skill-typo-'), 'acme', 'typo-pack');
    r.commit({ 'skills/one/SKILL.md': skill('one', 'd'), 'skills/two/skill.md': skill('two', 'd') });
    const dir = tmp('axis-skill-typo-proj-');
    const at = join(dir, '.axis/skills-cache/local/acme/typo-pack@HEAD/skills/two');
    await expect(resolveSkillSources([r.url], dir)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining(
        `skill "${r.url}": expected ${at}/SKILL.md, found skill.md: rename it SKILL.md`,
      ),
    });
  });

  for (const cli of ['claude-code', 'codex', 'gemini'] as const) {
    it(
      `${cli}: the remote skill reaches the model in the CLI's own isolated home`,
      async () => {
        const res = await resolveSkillSources([`${repo.url}#v1`], project);
        const r = await runCliCase({
          agent: agentEntry(cli),
          tape: successTape,
          prompt: PROMPT,
          timeoutMs: 90_000,
          maxRetries: 1,
          skills: res.skills.get(`${repo.url}#v1`)!,
          listHome: true,
          needles: ['zebra-marker-71', 'release-notes'],
        });
        const why = explain(r);
        expect(r.transcript.error, why).toBeUndefined();
        expect(r.needleHits['zebra-marker-71'], why).toBeGreaterThan(0);
        expect(r.needleHits['release-notes'], why).toBeGreaterThan(0);
        const home = { 'claude-code': '.claude/skills', codex: '.codex/skills', gemini: '.gemini/skills' }[
          cli
        ];
        expect(r.homeFiles, why).toContain(`${home}/release-notes/SKILL.md`);
      },
      T,
    );
  }

  it(
    'axis run reuses the cached checkout until --refresh-skills; an agent that cannot take skills is named at validate',
    async () => {
      const dir = tmp('axis-skill-run-');
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({
          scenarios: ['./s.json'],
          agents: [TOY_AGENT],
          skills: [`${repo.url}#main`],
        }),
      );
      writeFileSync(
        join(dir, 's.json'),
        JSON.stringify({ name: 'S', prompt: 'p', checks: [{ file: 'out.txt', exists: true }] }),
      );
      const v = await axis(['validate'], dir);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stderr).toContain(
        'note: agent "toy" (command) cannot take skills: the configured skills are not installed for it',
      );

      const cached = join(dir, '.axis/skills-cache/local/acme/skill-pack@main/skills/changelog/SKILL.md');
      expect((await axis(['run', '--no-score'], dir)).code).toBe(0);
      expect(readFileSync(cached, 'utf8')).toContain('Keeps CHANGELOG.md tidy.');
      repo.commit({ 'skills/changelog/SKILL.md': skill('changelog', 'Second version.') });
      expect((await axis(['run', '--no-score'], dir)).code).toBe(0);
      expect(readFileSync(cached, 'utf8')).toContain('Keeps CHANGELOG.md tidy.');
      const r = await axis(['run', '--no-score', '--refresh-skills', '-v'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(cached, 'utf8')).toContain('Second version.');
      expect(existsSync(join(dir, '.axis/skills-cache/local/acme/skill-pack@main/.git'))).toBe(true);
    },
    T,
  );

  it(
    '--refresh-skills with the remote gone uses the cached checkout, with a warning, at a commit as at a branch',
    async () => {
      const gone = createRepo(tmp('axis-skill-gone-'), 'acme', 'gone');
      const sha = gone.commit({ 'SKILL.md': skill('gone', 'd') });
      const dir = tmp('axis-skill-offline-');
      writeFileSync(
        join(dir, 's.json'),
        JSON.stringify({ name: 'S', prompt: 'p', checks: [{ file: 'out.txt', exists: true }] }),
      );
      for (const ref of [sha, 'main']) {
        writeFileSync(
          join(dir, 'axis.config.json'),
          JSON.stringify({ scenarios: ['./s.json'], agents: [TOY_AGENT], skills: [`${gone.url}#${ref}`] }),
        );
        if (ref === 'main') renameSync(`${gone.bare}.away`, gone.bare);
        expect((await axis(['run', '--no-score'], dir)).code).toBe(0);
        renameSync(gone.bare, `${gone.bare}.away`);
        const r = await axis(['run', '--no-score', '--refresh-skills'], dir);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain(`${gone.url}#${ref}: cannot`);
        expect(r.stderr).toContain(`using the checkout already at ${sha.slice(0, 12)}`);
      }
    },
    T,
  );

  it('skills on an agent entry that cannot take them are rejected (exit 2)', async () => {
    const dir = tmp('axis-skill-bad-');
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [], agents: [{ agent: 'acp', command: 'x', skills: ['./s'] }] }),
    );
    const r = await axis(['validate'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('agents[0].skills: agent "acp" cannot take skills');
  });
});
