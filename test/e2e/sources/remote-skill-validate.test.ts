/**
 * What `axis validate` can check of skills from remotes without the network: a remote config's skill folder
 * that its checkout lacks, and a git skill source already fetched into .axis/skills-cache that holds no
 * skill. Both failed only when `axis run` got to them; validate now names the file and field (exit 2).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepo } from '../../helpers/git-repos.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;
afterAll(removeTempDirs);
beforeAll(buildDist);

const skill = (name: string) => `---\nname: ${name}\ndescription: d\n---\nbody\n`;
const scenario = { key: 's', name: 'S', prompt: 'p', checks: [{ file: 'out.txt', exists: true }] };

function project(config: object): string {
  const dir = tempDir('axis-rskill-val-proj-');
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ agents: [TOY_AGENT], ...config }));
  return dir;
}

it(
  "a remote config's skill folder missing from its checkout: validate names the remote's file and field",
  async () => {
    const repo = createRepo(tempDir('axis-rskill-val-git-'), 'acme', 'suite');
    repo.commit({ 'axis.config.json': { skills: ['./skills/nope'] }, 'scenarios/s.json': scenario });
    const dir = project({ scenarios: [repo.url] });
    const r = await axis(['validate'], dir);
    expect(r.code, r.stdout).toBe(2);
    const checkout = '.axis/remotes/local/acme/suite@HEAD';
    expect(r.stderr).toContain(
      `${checkout}/axis.config.json: skills[0]: expected a skill folder at ${join(dir, checkout, 'skills/nope')}, found nothing there`,
    );
    expect(r.stderr).not.toContain('    at ');
  },
  T,
);

it(
  'a git skill source already fetched with no skill in it: validate says so (exit 2); --refresh-skills still fetches it',
  async () => {
    const repo = createRepo(tempDir('axis-rskill-val-pack-'), 'acme', 'pack');
    repo.commit({ 'README.md': 'no skills yet\n' });
    const dir = project({ scenarios: [scenario], skills: [repo.url] });
    // Never fetched: validate cannot know (docs/configuration.md#skills), the run finds out.
    expect((await axis(['validate'], dir)).code).toBe(0);
    const run = await axis(['run', '--no-score'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Cannot install skills');

    const again = await axis(['validate'], dir);
    expect(again.code, again.stdout).toBe(2);
    expect(again.stderr).toContain(
      `axis.config.json: skills[0]: expected a skill in ${repo.url}, fetched into .axis/skills-cache/local/acme/pack@HEAD: ` +
        "found no SKILL.md (nor a pack's */SKILL.md, skills/*/SKILL.md); fix the source, then axis run --refresh-skills fetches it again",
    );

    repo.commit({ 'skills/x/SKILL.md': skill('x') });
    const fixed = await axis(['run', '--no-score', '--refresh-skills'], dir);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect((await axis(['validate'], dir)).code).toBe(0);
  },
  T,
);

it(
  "a remote scenario's git skill source fetched with no skill: validate names the remote's scenario file",
  async () => {
    const pack = createRepo(tempDir('axis-rskill-val-pack2-'), 'acme', 'empty-pack');
    pack.commit({ 'README.md': 'no skills\n' });
    const repo = createRepo(tempDir('axis-rskill-val-git2-'), 'acme', 'suite2');
    repo.commit({ 'scenarios/s.json': { ...scenario, key: undefined, skills: [pack.url] } });
    const dir = project({ scenarios: [repo.url] });
    expect((await axis(['run', '--no-score'], dir)).code).toBe(2); // fetches the pack, finds no skill
    const r = await axis(['validate'], dir);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(
      `.axis/remotes/local/acme/suite2@HEAD/scenarios/s.json: skills[0]: expected a skill in ${pack.url}, ` +
        'fetched into .axis/skills-cache/local/acme/empty-pack@HEAD: found no SKILL.md',
    );
  },
  T,
);

it(
  'run --refresh-skills beside a broken scenario file: the stale cache it refreshes is not listed with the problems',
  async () => {
    const repo = createRepo(tempDir('axis-rskill-val-pack3-'), 'acme', 'pack3');
    repo.commit({ 'README.md': 'no skills yet\n' });
    const dir = project({ scenarios: [scenario, './scenarios'], skills: [repo.url] });
    mkdirSync(join(dir, 'scenarios'));
    const first = await axis(['run', '--no-score'], dir);
    expect(first.stderr).toContain('Cannot install skills'); // fetched: no skill in it
    repo.commit({ 'skills/x/SKILL.md': skill('x') });
    writeFileSync(join(dir, 'scenarios/bad.json'), '{ "name": ');

    const stale = 'fetched into .axis/skills-cache/local/acme/pack3@HEAD: found no SKILL.md';
    // Without the flag the cached checkout is what the run would use: listed with the broken file.
    const plain = await axis(['run', '--no-score'], dir);
    expect(plain.code, plain.stdout).toBe(2);
    expect(plain.stderr).toContain('scenarios/bad.json');
    expect(plain.stderr).toContain(stale);

    const refreshed = await axis(['run', '--no-score', '--refresh-skills'], dir);
    expect(refreshed.code, refreshed.stdout).toBe(2);
    expect(refreshed.stderr).toContain('Invalid configuration (1 problem):\n  scenarios/bad.json');
    expect(refreshed.stderr).not.toContain(stale);

    writeFileSync(join(dir, 'scenarios/bad.json'), JSON.stringify({ ...scenario, key: undefined }));
    const fixed = await axis(['run', '--no-score', '--refresh-skills'], dir);
    expect(fixed.code, fixed.stderr).toBe(0);
  },
  T,
);
