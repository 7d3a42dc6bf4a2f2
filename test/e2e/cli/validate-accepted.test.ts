/**
 * Settings `axis validate` used to accept although they could not do what a user meant: each is now an
 * error naming the file, the field and what was expected (exit 2), or loads as documented.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

const bin = join(import.meta.dirname, '../../../bin/axis.js');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A project of these files (objects become JSON); `axis validate` run in it as a user would. */
function validate(files: Record<string, unknown>, args: string[] = [], sub = '') {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-accepted-')));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  const r = spawnSync(process.execPath, [bin, 'validate', ...args], {
    cwd: join(dir, sub),
    encoding: 'utf8',
    // Keys: validate checks the agents' credentials too, which these tests are not about.
    env: { ...process.env, NO_COLOR: '1', ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' },
  });
  return { dir, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const config = { agents: ['claude-code'] };
const withScenario = (body: Record<string, unknown>) => ({
  'axis.config.json': config,
  'scenarios/s.json': { name: 'S', prompt: 'p', ...body },
});

describe('regular expressions written as /pattern/flags', () => {
  test('an unknown flag is an error, not a pattern matching the literal text "/x/q"', () => {
    const r = validate(
      withScenario({ checks: [{ result_matches: '/done/I' }, { file: 'a', matches: '/x/q' }] }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'scenarios/s.json: checks[0].result_matches: expected a valid regular expression, found "/done/I" (unknown flag "I": flags are d, g, i, m, s, u, v, y; to match the text /done/I, write \\/done\\/I)',
    );
    expect(r.stderr).toContain('scenarios/s.json: checks[1].matches: expected a valid regular expression');
    expect(r.stderr).toContain('(unknown flag "q"');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  test('valid flags and a path-like pattern still load', () => {
    const r = validate(
      withScenario({
        checks: [
          { result_matches: '/^done$/mi' },
          { file: 'a', matches: '/usr/bin/env' },
          { file: 'b', matches: '\\/x\\/q' },
        ],
      }),
      ['--json'],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

test('"variants": [] is an error: the base scenario of a template does not run', () => {
  const r = validate(withScenario({ judge: 'ok', variants: [] }));
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    'scenarios/s.json: variants: expected at least one variant, found an empty array (remove "variants" to run the scenario itself)',
  );
});

describe('criteria that reports could not tell apart', () => {
  test('two checks with the same name are an error naming both', () => {
    const r = validate(
      withScenario({
        checks: [
          { run: 'npm test', name: 'tests pass' },
          { run: 'npm run e2e', name: 'tests pass' },
        ],
      }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'scenarios/s.json: checks[1].name: duplicate check name "tests pass" (also checks[0]): reports show each check by its name; give each its own',
    );
  });

  test('an unnamed check labelled like another is an error too', () => {
    const r = validate(withScenario({ checks: [{ run: 'npm test' }, { run: 'npm test' }] }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'scenarios/s.json: checks[1]: duplicate check "`npm test` exits with 0" (also checks[0]): reports show each check by its name; remove one, or give each its own "name"',
    );
  });

  test('the same judge check twice is an error', () => {
    const r = validate(withScenario({ judge: [{ check: 'Said hello' }, { check: 'Said hello' }] }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'scenarios/s.json: judge[1].check: duplicate judge check "Said hello" (also judge[0]); remove one',
    );
  });

  test('a variant whose own checks repeat a name is reported at the variant', () => {
    const r = validate(
      withScenario({
        judge: 'ok',
        variants: [
          {
            name: 'a',
            checks: [
              { run: 'x', name: 'n' },
              { run: 'y', name: 'n' },
            ],
          },
        ],
      }),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('scenarios/s.json: variants[0].checks[1].name: duplicate check name "n"');
  });
});

describe('a YAML config', () => {
  const notRead = (dir: string) =>
    `axis.config.yaml in ${dir} is not read: AXIS configs are JSON (axis.config.json) or TS/JS (axis.config.ts, …); convert it, or pass -c <path>`;

  test('alone: the error names it and the formats AXIS reads', () => {
    const r = validate({ 'axis.config.yaml': 'agents: [claude-code]\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(notRead(r.dir));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('below a project with a JSON config: not skipped for the config of the folder above', () => {
    const r = validate(
      {
        'axis.config.json': config,
        'scenarios/s.json': { name: 'S', prompt: 'p', judge: 'ok' },
        'sub/axis.config.yml': 'agents: [codex]\n',
      },
      [],
      'sub',
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(notRead(join(r.dir, 'sub')).replace('.yaml', '.yml'));
  });

  test('a .jsonc or .json5 config is named the same way, not passed over', () => {
    for (const name of ['axis.config.jsonc', 'axis.config.json5']) {
      const r = validate({ [name]: '{ // agents\n "agents": ["claude-code"] }\n' });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(notRead(r.dir).replace('axis.config.yaml', name));
    }
  });
});

test('-c <folder> holding only a YAML config names it', () => {
  const r = validate({ 'cfg/axis.config.yaml': 'agents: [claude-code]\n' }, ['-c', 'cfg']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`axis.config.yaml in ${join(r.dir, 'cfg')} is not read`);
});

describe("an agent's scenarios list in a profile", () => {
  const files = (profile: Record<string, unknown>) => ({
    'axis.config.json': { agents: ['claude-code'], profiles: { ci: profile } },
    'scenarios/hello.json': { name: 'Hello', prompt: 'p', judge: 'ok' },
    'smoke/other.json': { name: 'Other', prompt: 'p', judge: 'ok' },
  });

  test('a typo is caught without selecting that profile', () => {
    const r = validate(files({ agents: [{ agent: 'codex', scenarios: ['helo'] }] }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'axis.config.json: profiles.ci.agents[0].scenarios[0]: no scenario has the key "helo"; did you mean "hello"?',
    );
  });

  test('a profile with its own scenarios is checked when selected, not against the base', () => {
    const own = files({ scenarios: './smoke', agents: [{ agent: 'codex', scenarios: ['other'] }] });
    expect(validate(own).code).toBe(0);
    expect(validate(own, ['--profile', 'ci']).code).toBe(0);
  });
});

describe("an agent's scenarios glob that matches no scenario", () => {
  const files = (scenarios: string[]) => ({
    'axis.config.json': { agents: ['claude-code', { agent: 'codex', scenarios }] },
    'scenarios/cms/post.json': { name: 'Post', prompt: 'p', judge: 'ok' },
    'scenarios/hello.json': { name: 'Hello', prompt: 'p', judge: 'ok' },
  });

  test('is an error naming the entry, not an agent silently left out of every job', () => {
    const r = validate(files(['cms-*']));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'axis.config.json: agents[1].scenarios[0]: the glob "cms-*" matches no scenario (keys: cms/post, hello)',
    );
  });

  test('globs that match load (cms/*, *); each entry must match, not just one of them', () => {
    expect(validate(files(['cms/*'])).code).toBe(0);
    expect(validate(files(['nothing-*', 'hel?o'])).code).toBe(2);
    expect(validate(files(['*'])).code).toBe(0);
  });
});

describe('a scenario whose agents list names no configured agent', () => {
  const files = {
    'axis.config.json': { agents: ['claude-code', 'codex'] },
    'scenarios/hello.json': { name: 'Hello', prompt: 'p', judge: 'ok' },
    'scenarios/gem.json': { name: 'Gem', prompt: 'p', judge: 'ok', agents: ['gemini'] },
    'scenarios/both.json': { name: 'Both', prompt: 'p', judge: 'ok', agents: ['gemini', 'codex'] },
  };

  test('is noted as running in no job, not left out without a word', () => {
    const r = validate(files);
    expect(r.code, r.stderr).toBe(0);
    const note =
      'scenarios/gem.json: scenario "gem" runs in no job: no configured agent is in its agents list (gemini)';
    expect(r.stderr).toContain(`note: ${note}`);
    expect(r.stderr).not.toContain('"both" runs in no job');
    const json = validate(files, ['--json']);
    expect((JSON.parse(json.stdout) as { notices: string[] }).notices).toEqual([note]);
  });
});

describe('settings.thresholds.baseline_tolerance', () => {
  const tolerance = (baseline_tolerance: unknown) =>
    validate({
      'axis.config.json': { ...config, settings: { thresholds: { baseline_tolerance } } },
      'scenarios/s.json': { name: 'S', prompt: 'p', judge: 'ok' },
    });

  test('100 points or more (no score drop could ever fail the gate) is an error naming file and field', () => {
    for (const v of [100, 150]) {
      const r = tolerance(v);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain(
        `axis.config.json: settings.thresholds.baseline_tolerance: expected points from 0 to below 100 (a tolerance of 100 lets every score drop pass the gate), found ${v}`,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(tolerance(-1).stderr).toContain('baseline_tolerance: expected points from 0 to below 100');
  });

  test('0 and values below 100 load and are printed as resolved', () => {
    expect(tolerance(0).code).toBe(0);
    const r = tolerance(99.5);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('baseline tolerance 99.5');
  });
});
