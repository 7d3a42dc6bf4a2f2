/**
 * A remote's skill sources (its config's `skills`, a remote scenario's `skills`) name folders of the remote's
 * checkout, never of the project that uses the remote: a same-named folder of the project must not stand in
 * for them, and a path leaving the checkout is refused as for the remote's other paths.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 120_000;
const tmp = tempDir;
afterAll(removeTempDirs);

const skill = (name: string) => `---\nname: ${name}\ndescription: d\n---\nbody\n`;
const scenario = (skills: string[]) => ({
  name: 'S',
  prompt: 'p',
  skills,
  checks: [{ file: 'out.txt', exists: true }],
});

let repo: TestRepo;
beforeAll(() => {
  buildDist();
  repo = createRepo(tmp('axis-rskill-git-'), 'acme', 'suite');
  repo.commit({
    'axis.config.json': { skills: ['skills/house'] },
    'scenarios/s.json': scenario(['./skills/extra']),
    'skills/house/SKILL.md': skill('remote-house'),
    'skills/extra/SKILL.md': skill('remote-extra'),
  });
});

/** A project using the remote, with folders of the same names holding other skills. */
function project(): string {
  const dir = tmp('axis-rskill-proj-');
  for (const name of ['house', 'extra']) {
    mkdirSync(join(dir, 'skills', name), { recursive: true });
    writeFileSync(join(dir, 'skills', name, 'SKILL.md'), skill(`project-${name}`));
  }
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: [repo.url], agents: [TOY_AGENT] }),
  );
  return dir;
}

it(
  "a remote config's skills/x and a remote scenario's ./skills/x are the remote's folders, not the project's",
  async () => {
    const dir = project();
    const checkout = join(dir, '.axis/remotes/local/acme/suite@HEAD');
    const loaded = await loadConfig(undefined, { cwd: dir });
    expect(loaded.config.skills).toEqual([join(checkout, 'skills/house')]);
    expect(loaded.scenarios.map((s) => s.skills)).toEqual([[join(checkout, 'skills/extra')]]);
    const r = await axis(['run', '--no-score'], dir);
    expect(r.code, r.stderr).toBe(0);
  },
  T,
);

it(
  "a remote's skill path leaving its checkout is refused at validation, naming the remote's file (exit 2)",
  async () => {
    const escape = createRepo(tmp('axis-rskill-esc-'), 'acme', 'escape');
    escape.commit({
      'axis.config.json': { skills: ['skills/../..'] },
      'scenarios/s.json': scenario([tmpdir(), './skills/ok']),
      'skills/ok/SKILL.md': skill('ok'),
    });
    const dir = tmp('axis-rskill-esc-proj-');
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: [escape.url], agents: [TOY_AGENT] }),
    );
    const r = await axis(['validate'], dir);
    expect(r.code).toBe(2);
    const shown = '.axis/remotes/local/acme/escape@HEAD';
    expect(r.stderr).toContain(
      `${shown}/axis.config.json: skills[0]: refused: "skills/../.." points outside the remote's checkout`,
    );
    expect(r.stderr).toContain(
      `${shown}/scenarios/s.json: skills[0]: refused: ${JSON.stringify(tmpdir())} points outside the remote's checkout`,
    );
  },
  T,
);
