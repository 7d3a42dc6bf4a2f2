/**
 * A YAML scenario beside JSON ones (in a folder, a glob's matches, a remote's checkout) was passed over
 * without a word: validate said the config was valid and the run left the scenario out. AXIS does not
 * read YAML, so each such file is now an error naming it (exit 2); `_` keeps a YAML file as data. The
 * same for JSON with comments (`.jsonc`) and JSON5 (`.json5`), which JSON.parse does not read either.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRepo } from '../../helpers/git-repos.js';
import { makeProject, removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, TOY_AGENT } from '../run/helpers.js';

const T = 60_000;
afterAll(removeTempDirs);
beforeAll(buildDist);

const hello = { name: 'hello', prompt: 'p', checks: [{ file: 'out.txt', exists: true }] };
const yaml = 'name: b\nprompt: p\n';
const notRead = (file: string, rename: string, kind = 'YAML') =>
  `${file}: expected a scenario file (.json, .js, .mjs, .cjs, .ts, .mts or .cts), found ${kind}, which AXIS ` +
  `does not read; convert it to JSON, or name it ${rename} (or put it in a folder starting with _) to keep it as data\n`;

function project(scenarios: unknown, files: Record<string, string | object> = {}): string {
  return makeProject({
    'axis.config.json': { scenarios, agents: [TOY_AGENT] },
    'scenarios/a.json': hello,
    ...files,
  });
}

it(
  'a .yaml and a .yml beside a JSON scenario: validate and run name each file (exit 2)',
  async () => {
    const dir = project('./scenarios', { 'scenarios/b.yaml': yaml, 'scenarios/cms/c.yml': yaml });
    for (const args of [['validate'], ['run', '--no-score']]) {
      const r = await axis(args, dir);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain(notRead('scenarios/b.yaml', '_b.yaml'));
      expect(r.stderr).toContain(notRead('scenarios/cms/c.yml', '_c.yml'));
      expect(r.stderr).not.toContain('    at ');
    }
  },
  T,
);

it(
  'a .jsonc and a .json5 beside a JSON scenario: named the same way (exit 2); with _ they are data',
  async () => {
    const jsonc = '{\n  // a comment\n  "name": "b", "prompt": "p"\n}\n';
    const dir = project('./scenarios', {
      'scenarios/b.jsonc': jsonc,
      'scenarios/cms/c.JSON5': "{ name: 'c', prompt: 'p', }\n",
    });
    for (const args of [['validate'], ['run', '--no-score']]) {
      const r = await axis(args, dir);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain(notRead('scenarios/b.jsonc', '_b.jsonc', 'JSON with comments (JSONC)'));
      expect(r.stderr).toContain(notRead('scenarios/cms/c.JSON5', '_c.JSON5', 'JSON5'));
    }
    const data = project('./scenarios', { 'scenarios/_b.jsonc': jsonc, 'scenarios/_x/c.json5': '{}' });
    const ok = await axis(['validate'], data);
    expect(ok.code, ok.stderr).toBe(0);
  },
  T,
);

it(
  'a glob matching a YAML file beside a JSON one: the same',
  async () => {
    const dir = project(['./scenarios/*'], { 'scenarios/b.yml': yaml });
    const r = await axis(['validate'], dir);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(notRead('scenarios/b.yml', '_b.yml'));
  },
  T,
);

it(
  'YAML named with _ or under a _ folder is data: the config is valid',
  async () => {
    const dir = project('./scenarios', {
      'scenarios/_b.yaml': yaml,
      'scenarios/_fixtures/compose.yml': yaml,
      'scenarios/axis.config.yaml': yaml,
    });
    const r = await axis(['validate'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Scenarios (1)');
  },
  T,
);

it(
  "a YAML file in a remote's scenarios: named in its checkout (exit 2)",
  async () => {
    const repo = createRepo(tempDir('axis-yaml-git-'), 'acme', 'suite');
    repo.commit({ 'scenarios/a.json': hello, 'scenarios/b.yaml': yaml });
    const dir = makeProject({ 'axis.config.json': { scenarios: [repo.url], agents: [TOY_AGENT] } });
    const r = await axis(['validate'], dir);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(notRead('.axis/remotes/local/acme/suite@HEAD/scenarios/b.yaml', '_b.yaml'));
  },
  T,
);

it.each([
  ['axis.config.yaml', 'scenarios: ./suites\n', 'YAML', 'suite2'],
  ['axis.config.jsonc', '{ // x\n}\n', 'JSON with comments (JSONC)', 'suite3'],
])(
  "a remote's %s: named with its format, not passed over for its ./scenarios with the defaults (exit 2)",
  async (name, text, format, suite) => {
    const repo = createRepo(tempDir('axis-unread-git-'), 'acme', suite);
    repo.commit({ [name]: text, 'scenarios/a.json': hello });
    const dir = makeProject({ 'axis.config.json': { scenarios: [repo.url], agents: [TOY_AGENT] } });
    const r = await axis(['validate'], dir);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stderr).toContain(
      `.axis/remotes/local/acme/${suite}@HEAD/${name}: expected a config AXIS reads ` +
        `(axis.config.json, or TS/JS: axis.config.ts, …), found ${format}, which AXIS does not read; ` +
        'convert it to JSON\n',
    );
  },
  T,
);
