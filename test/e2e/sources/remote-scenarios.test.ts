/**
 * Remote scenarios from real git repositories (bare repos read through file:// URLs): pinned tags and
 * commits, branches that move, a missing ref, the trust_code opt-in both ways, and remotes that try to
 * reach outside their checkout.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/util/errors.js';
import { createRepo, type TestRepo } from '../../helpers/git-repos.js';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const AGENT = join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh');
const T = 120_000;
const tmp = tempDir;
afterAll(removeTempDirs);

let gitRoot: string;
let repo: TestRepo;
let marker: string;
let v1: string;

beforeAll(() => {
  buildDist();
  gitRoot = tmp('axis-git-');
  marker = join(gitRoot, 'remote-code-ran');
  repo = createRepo(gitRoot, 'acme', 'agent-suite');
  v1 = repo.commit({
    'axis.config.json': {
      scenarios: './suite',
      agents: ['claude-code'],
      env: ['REMOTE_ONLY', 'SHARED'],
      mcp_servers: {
        docs: { type: 'http', url: 'http://127.0.0.1:9/remote-docs' },
        extra: { type: 'http', url: 'http://127.0.0.1:9/extra' },
      },
      skills: ['./skills/style'],
      artifacts: ['remote/**'],
    },
    'suite/hello.json': {
      name: 'Remote hello',
      prompt: 'Write out.txt',
      checks: [{ file: 'out.txt', contains: 'hi' }],
    },
    'suite/typed.ts': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'Typed', prompt: 'x', judge: 'y' };\n`,
    'skills/style/SKILL.md': '---\nname: style\ndescription: d\n---\nbody\n',
    'package.json': { name: 'suite', scripts: { postinstall: `touch ${marker}.npm` } },
    'scenarios/not-this.json': { name: 'never discovered', prompt: 'x', judge: 'y' },
  });
  repo.tag('v1');
  repo.commit({ 'suite/later.json': { name: 'Added later', prompt: 'y', judge: 'z' } });
});

function project(config: Record<string, unknown>, files: Record<string, object> = {}): string {
  const dir = tmp('axis-remote-proj-');
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config));
  for (const [name, value] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), JSON.stringify(value));
  }
  return dir;
}
const toy = { agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' };
/** A local scenario file with a problem of its own: the other scenarios' problems are listed with it. */
const BROKEN = { name: 'b', prompt: 5, judge: 'j' };

/**
 * `axis run` and `axis validate` of the remote alone, and beside a broken local scenario (every problem
 * listed in one pass), each refuse its tape with `message` and never run it (`ran` never written).
 */
async function expectRefusedNeverRun(remote: string, message: string, ran: string): Promise<void> {
  const settings = { simulate: true };
  const alone = project({ scenarios: [remote], agents: [toy], settings });
  const beside = project(
    { scenarios: [remote, './scenarios'], agents: [toy], settings },
    { 'scenarios/broken.json': BROKEN },
  );
  for (const cwd of [alone, beside])
    for (const args of [['run', '--no-score'], ['validate']]) {
      const r = await axis(args, cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(existsSync(ran), `${args.join(' ')} in ${cwd}`).toBe(false);
    }
}

describe('remote scenarios from git', () => {
  it(
    'a pinned tag is checked out under .axis/remotes/<host>/<owner>/<repo>@<ref>; only its scenarios folder; TS not run without opt-in (notice)',
    async () => {
      const dir = project({ scenarios: [`${repo.url}#v1`], agents: [toy] });
      const r = await axis(['validate', '--json'], dir);
      expect(r.code, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as { scenarios: { key: string }[]; notices: string[] };
      expect(plan.scenarios.map((s) => s.key)).toEqual(['hello']);
      const checkout = join(dir, '.axis/remotes/local/acme/agent-suite@v1');
      expect(readFileSync(join(checkout, 'suite/hello.json'), 'utf8')).toContain('Remote hello');
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(`${marker}.npm`)).toBe(false);
      expect(existsSync(join(checkout, 'node_modules'))).toBe(false);
      expect(r.stderr).toContain(
        `note: ${repo.url}#v1: 1 TypeScript/JavaScript scenario file not loaded (.axis/remotes/local/acme/agent-suite@v1/suite/typed.ts): remote code runs only when settings.remotes.trust_code trusts the source`,
      );
    },
    T,
  );

  it(
    'with settings.remotes.trust_code (true, or the URL listed) the TS scenario loads; a listed URL that is no source is exit 2',
    async () => {
      for (const trust of [true, [repo.url]]) {
        rmSync(marker, { force: true });
        const dir = project({
          scenarios: [`${repo.url}#v1`],
          agents: [toy],
          settings: { remotes: { trust_code: trust } },
        });
        const r = await axis(['validate', '--json'], dir);
        expect(r.code, r.stderr).toBe(0);
        expect(
          (JSON.parse(r.stdout) as { scenarios: { key: string }[] }).scenarios.map((s) => s.key),
        ).toEqual(['hello', 'typed']);
        expect(existsSync(marker)).toBe(true);
      }
      const bad = project({
        scenarios: [`${repo.url}#v1`],
        agents: [toy],
        settings: { remotes: { trust_code: ['file:///elsewhere/acme/agent-suite.git'] } },
      });
      const r = await axis(['validate'], bad);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('settings.remotes.trust_code[0]: no git source in "scenarios" has the URL');
      expect(r.stderr).toContain(`(git sources: ${repo.url})`);
    },
    T,
  );

  it(
    'a trust_code entry with a #ref trusts that ref only: the same URL at another ref runs no code, and an entry whose ref no source uses is exit 2',
    async () => {
      rmSync(marker, { force: true });
      const dir = project({
        scenarios: [`${repo.url}#main`],
        agents: [toy],
        settings: { remotes: { trust_code: [`${repo.url}#v1`] } },
      });
      const r = await axis(['validate'], dir);
      expect(existsSync(marker)).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `settings.remotes.trust_code[0]: no git source in "scenarios" is "${repo.url}#v1": an entry with a #ref trusts that ref only (scenarios has "${repo.url}#main"; list it, or the URL without #ref for every ref)`,
      );
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({
          scenarios: [`${repo.url}#main`],
          agents: [toy],
          settings: { remotes: { trust_code: [`${repo.url}#main`] } },
        }),
      );
      const same = await axis(['validate', '--json'], dir);
      expect(same.code, same.stderr).toBe(0);
      expect(existsSync(marker)).toBe(true); // the ref listed is trusted
    },
    T,
  );

  it(
    'a ref that does not exist is exit 2 naming it; nothing is left half-cloned',
    async () => {
      const dir = project({ scenarios: [`${repo.url}#v9`], agents: [toy] });
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`ref "v9" does not exist in ${repo.url}`);
      expect(existsSync(join(dir, '.axis/remotes/local/acme/agent-suite@v9'))).toBe(false);
    },
    T,
  );

  it(
    'a branch ref is refreshed when it moves; a commit ref stays put',
    async () => {
      const dir = project({ scenarios: [`${repo.url}#main`, `${repo.url}#${v1}`], agents: [toy] });
      const keys = async () => {
        const r = await axis(['validate', '--json'], dir);
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as { scenarios: { key: string }[] }).scenarios.map((s) => s.key);
      };
      // Both sources define hello: the duplicate key is reported. Use only main first.
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({ scenarios: [`${repo.url}#main`], agents: [toy] }),
      );
      expect(await keys()).toEqual(['hello', 'later']);
      repo.commit({ 'suite/newest.json': { name: 'Newest', prompt: 'n', judge: 'n' } });
      expect(await keys()).toEqual(['hello', 'later', 'newest']);
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({ scenarios: [`${repo.url}#${v1}`], agents: [toy] }),
      );
      expect(await keys()).toEqual(['hello']);
      expect(existsSync(join(dir, `.axis/remotes/local/acme/agent-suite@${v1}`))).toBe(true);
    },
    T,
  );

  it(
    "the remote's env, mcp_servers, skills and artifacts merge in, the parent winning",
    async () => {
      const dir = project({
        scenarios: [`${repo.url}#v1`],
        agents: [toy],
        env: ['SHARED'],
        mcp_servers: { docs: { type: 'http', url: 'http://127.0.0.1:9/parent-docs' } },
        artifacts: ['out.txt'],
      });
      const loaded = await loadConfig(dir, { cwd: dir });
      const c = loaded.config;
      expect(c.env.pass).toEqual(['SHARED', 'REMOTE_ONLY']);
      expect(c.mcp_servers.docs).toEqual({ type: 'http', url: 'http://127.0.0.1:9/parent-docs' });
      expect(c.mcp_servers.extra).toEqual({ type: 'http', url: 'http://127.0.0.1:9/extra' });
      expect(c.skills).toEqual([join(dir, '.axis/remotes/local/acme/agent-suite@v1/skills/style')]);
      expect(c.artifacts).toEqual(['out.txt', 'remote/**']);
    },
    T,
  );

  it(
    'a remote scenario at a pinned tag runs end to end',
    async () => {
      rmSync(marker, { force: true });
      const dir = project({ scenarios: [`${repo.url}#v1`], agents: [toy] });
      const r = await axis(['run', '--no-score', '--json'], dir);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { results: { scenarioKey: string; status: string }[] };
      expect(doc.results).toMatchObject([{ scenarioKey: 'hello', status: 'completed' }]);
      expect(existsSync(marker)).toBe(false);
    },
    T,
  );

  it(
    'a remote with a symlink out of its checkout, or a config path climbing out, is refused (exit 2)',
    async () => {
      const evil = createRepo(gitRoot, 'evil', 'links');
      evil.commit({ 'scenarios/ok.json': { name: 'ok', prompt: 'p', judge: 'j' } });
      symlinkSync('/etc/passwd', join(evil.work, 'scenarios/passwd.json'));
      evil.commit({}, 'add link');
      const a = await axis(['validate'], project({ scenarios: [evil.url], agents: [toy] }));
      expect(a.code).toBe(2);
      expect(a.stderr).toContain('has symlinks pointing outside it: scenarios/passwd.json');

      const climb = createRepo(gitRoot, 'evil', 'climb');
      climb.commit({ 'axis.config.json': { scenarios: ['../../../../..'], agents: ['codex'] } });
      const b = await axis(['validate'], project({ scenarios: [climb.url], agents: [toy] }));
      expect(b.code).toBe(2);
      expect(b.stderr).toContain(`refused: "../../../../.." points outside the remote's checkout`);
    },
    T,
  );

  it(
    "a remote config's absolute skill path (a folder on this machine, outside its checkout) is refused",
    async () => {
      const outside = tmp('axis-host-skill-');
      writeFileSync(join(outside, 'SKILL.md'), '---\nname: private\ndescription: d\n---\nsecret\n');
      const grab = createRepo(gitRoot, 'evil', 'skills');
      grab.commit({
        'axis.config.json': { skills: [outside] },
        'scenarios/ok.json': { name: 'ok', prompt: 'p', judge: 'j' },
      });
      const dir = project({ scenarios: [grab.url], agents: [toy] });
      await expect(loadConfig(dir, { cwd: dir })).rejects.toThrow(ConfigError);
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `skills[0]: refused: ${JSON.stringify(outside)} points outside the remote's checkout`,
      );
    },
    T,
  );

  it(
    'two sources that would share one checkout folder (refs a/b and a_b) are refused, neither silently lost',
    async () => {
      const twin = createRepo(gitRoot, 'acme', 'twins');
      twin.commit({ 'scenarios/base.json': { name: 'base', prompt: 'p', judge: 'j' } });
      for (const branch of ['a/b', 'a_b']) {
        twin.run('checkout', '-q', '-b', branch, 'main');
        const file = `scenarios/${branch.replace('/', '-')}.json`;
        writeFileSync(join(twin.work, file), JSON.stringify({ name: branch, prompt: 'p', judge: 'j' }));
        twin.run('add', '-A');
        twin.run('commit', '-q', '-m', branch);
        twin.run('push', '-q', 'origin', branch);
      }
      const dir = project({ scenarios: [`${twin.url}#a/b`, `${twin.url}#a_b`], agents: [toy] });
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `scenarios[1]: ${twin.url}#a_b and ${twin.url}#a/b would share the checkout .axis/remotes/local/acme/twins@a_b`,
      );
    },
    T,
  );

  it(
    "a remote scenario's tape outside its checkout (a module elsewhere on this machine) is refused, never run",
    async () => {
      const outside = join(tmp('axis-outside-tape-'), 'tape.ts');
      const ran = `${outside}.ran`;
      writeFileSync(
        outside,
        `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(ran)}, 'ran');\nexport default { turns: [{ text: 'hi' }] };\n`,
      );
      const far = createRepo(gitRoot, 'evil', 'tapes');
      far.commit({ 'scenarios/t.json': { name: 't', prompt: 'p', judge: 'j', tape: outside } });
      await expectRefusedNeverRun(
        far.url,
        `tape: refused: ${JSON.stringify(outside)} points outside the remote's checkout`,
        ran,
      );
    },
    T,
  );

  it(
    "an untrusted remote's .cts tape is code: refused, never run",
    async () => {
      const ran = join(tmp('axis-cts-'), 'ran');
      const cts = createRepo(gitRoot, 'evil', 'cts');
      cts.commit({
        'scenarios/t.json': { name: 't', prompt: 'p', judge: 'j', tape: '../tape.cts' },
        'tape.cts': `require('node:fs').writeFileSync(${JSON.stringify(ran)}, 'ran');\nmodule.exports = { turns: [{ text: 'hi' }] };\n`,
      });
      await expectRefusedNeverRun(cts.url, 'tape.cts is code from a remote repository', ran);
    },
    T,
  );

  it(
    'a nested remote beyond settings.remotes.maxDepth is reported; loadConfig throws ConfigError (exit 2)',
    async () => {
      const outer = createRepo(gitRoot, 'acme', 'outer');
      outer.commit({ 'axis.config.json': { scenarios: [`${repo.url}#v1`], agents: ['codex'] } });
      const dir = project({ scenarios: [outer.url], agents: [toy] });
      await expect(loadConfig(dir, { cwd: dir })).rejects.toThrow(ConfigError);
      const r = await axis(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('settings.remotes.maxDepth is 1, so nested remotes are not followed');
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({ scenarios: [outer.url], agents: [toy], settings: { remotes: { maxDepth: 2 } } }),
      );
      const ok = await axis(['validate', '--json'], dir);
      expect(ok.code, ok.stderr).toBe(0);
      expect((JSON.parse(ok.stdout) as { scenarios: { key: string }[] }).scenarios.map((s) => s.key)).toEqual(
        ['hello'],
      );
    },
    T,
  );
});
