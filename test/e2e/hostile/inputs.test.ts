/**
 * Hostile config and scenario files through the real CLI: every one is a clear problem naming the file and
 * what was expected (exit 2), never "Internal error", a hang or unbounded memory. Each case runs under a
 * time budget, so a regression that hangs fails the test instead of stalling the suite.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, config, hello, project } from './helpers.js';

checkLeaks();

interface Case {
  name: string;
  /** Builds the project; returns extra CLI args (e.g. `-c file`). */
  setup: (dir: string) => string[] | void;
  /** The problem line, after the two-space indent: `<file>: <message>`. */
  problem: RegExp;
}

const deepJson = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const write = (dir: string, name: string, text: string) => {
  mkdirSync(join(dir, name, '..'), { recursive: true });
  writeFileSync(join(dir, name), text);
};
const withConfig = (dir: string, extra: Record<string, unknown> = {}) =>
  write(dir, 'axis.config.json', JSON.stringify({ ...config, ...extra }));
const withScenario = (dir: string) => write(dir, 'scenarios/hello.json', JSON.stringify(hello));
const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

const cases: Case[] = [
  // --- the scenario discovery path
  {
    name: 'a scenario symlinked to /dev/zero',
    setup: (dir) => {
      withConfig(dir);
      withScenario(dir);
      symlinkSync('/dev/zero', join(dir, 'scenarios/zero.json'));
    },
    problem: /^scenarios\/zero\.json: expected a regular file, found a character device$/,
  },
  {
    name: 'a .ts scenario symlinked to /dev/zero',
    setup: (dir) => {
      withConfig(dir);
      withScenario(dir);
      symlinkSync('/dev/zero', join(dir, 'scenarios/zero.ts'));
    },
    problem: /^scenarios\/zero\.ts: expected a regular file, found a character device$/,
  },
  {
    name: 'a FIFO scenario',
    setup: (dir) => {
      withConfig(dir);
      withScenario(dir);
      mkfifo(join(dir, 'scenarios/pipe.json'));
    },
    problem: /^scenarios\/pipe\.json: expected a regular file, found a FIFO \(named pipe\)$/,
  },
  {
    name: 'a scenario that is a symlink loop',
    setup: (dir) => {
      withConfig(dir);
      withScenario(dir);
      symlinkSync('b.json', join(dir, 'scenarios/a.json'));
      symlinkSync('a.json', join(dir, 'scenarios/b.json'));
    },
    problem: /^scenarios\/a\.json: could not read the file: a symlink loop \(ELOOP\)$/,
  },
  {
    name: 'a scenarios folder with a symlink back to itself',
    setup: (dir) => {
      withConfig(dir);
      withScenario(dir);
      symlinkSync('.', join(dir, 'scenarios/again'));
    },
    problem:
      /^scenarios\/again: expected a folder of scenarios, found a symlink back to scenarios \(a loop\); remove it, or name it _again to skip it$/,
  },
  {
    name: 'a scenarios source that is a symlink loop',
    setup: (dir) => {
      withConfig(dir, { scenarios: ['./looped'] });
      symlinkSync('looped', join(dir, 'looped'));
    },
    problem: /^axis\.config\.json: scenarios\[0\]: could not read "\.\/looped": a symlink loop \(ELOOP\)$/,
  },
  {
    name: 'a scenarios source that is a FIFO',
    setup: (dir) => {
      withConfig(dir, { scenarios: ['./pipe.json'] });
      mkfifo(join(dir, 'pipe.json'));
    },
    problem: /^pipe\.json: expected a regular file, found a FIFO \(named pipe\)$/,
  },
  {
    name: 'a scenario over the size cap',
    setup: (dir) => {
      withConfig(dir);
      withScenario(dir);
      write(dir, 'scenarios/huge.json', '');
      truncateSync(join(dir, 'scenarios/huge.json'), 20 * 1024 * 1024);
    },
    problem: /^scenarios\/huge\.json: the file is 20 MiB; expected at most 8 MiB$/,
  },
  {
    name: 'a 200k-deep JSON scenario',
    setup: (dir) => {
      withConfig(dir);
      write(dir, 'scenarios/deep.json', `{"name":"x","prompt":"p","judge":${deepJson(200_000, '"ok"')}}`);
    },
    problem: /^scenarios\/deep\.json: judge\[0\]\[0\]\[0\].*: nested deeper than 64 levels$/,
  },
  {
    name: 'a scenario module with a throwing getter',
    setup: (dir) => {
      withConfig(dir);
      write(
        dir,
        'scenarios/getter.mjs',
        'export default { name: "x", get prompt() { throw new Error("getter boom"); }, judge: "ok" };',
      );
    },
    problem: /^scenarios\/getter\.mjs: prompt: reading the value threw: getter boom$/,
  },
  // An inline key is printed raw on every run line, as a file-derived key is: the same characters are refused.
  {
    name: 'an escape sequence in an inline scenario key',
    setup: (dir) => withConfig(dir, { scenarios: [{ ...hello, key: 'k\u001b]0;pwn\u0007\u001b[2J' }] }),
    problem:
      /^axis\.config\.json: scenarios\[0\]\.key: expected a scenario key without control characters, found "k\\u001b\]0;pwn\\u0007\\u001b\[2J"$/,
  },
  {
    name: 'a bidi override in an inline scenario key',
    setup: (dir) => withConfig(dir, { scenarios: [{ ...hello, key: 'k\u202egnp.exe' }] }),
    problem:
      /^axis\.config\.json: scenarios\[0\]\.key: expected a scenario key without control characters, found "k\\u202egnp\.exe"$/,
  },
  // --- the config itself
  {
    name: 'a config symlinked to /dev/zero',
    setup: (dir) => {
      symlinkSync('/dev/zero', join(dir, 'axis.config.json'));
    },
    problem: /^axis\.config\.json: expected a regular file, found a character device$/,
  },
  {
    name: 'a FIFO config',
    setup: (dir) => {
      mkfifo(join(dir, 'axis.config.json'));
    },
    problem: /^axis\.config\.json: expected a regular file, found a FIFO \(named pipe\)$/,
  },
  {
    name: 'a config that is a symlink loop',
    setup: (dir) => {
      symlinkSync('axis.config.json', join(dir, 'axis.config.json'));
    },
    problem: /^axis\.config\.json: could not read the file: a symlink loop \(ELOOP\)$/,
  },
  {
    name: 'a config named with -c that is a symlink loop',
    setup: (dir) => {
      symlinkSync('c.json', join(dir, 'c.json'));
      return ['-c', 'c.json'];
    },
    problem: /^c\.json: could not read the file: a symlink loop \(ELOOP\)$/,
  },
  {
    name: 'a 200k-deep JSON config',
    setup: (dir) => {
      write(dir, 'axis.config.json', `{"agents":["claude-code"],"settings":{"x":${deepJson(200_000)}}}`);
      withScenario(dir);
    },
    problem: /^axis\.config\.json: settings\.x\[0\]\[0\].*: nested deeper than 64 levels$/,
  },
  {
    name: 'a cyclic .mjs config (an import cycle reading a binding before it is set)',
    setup: (dir) => {
      write(
        dir,
        'axis.config.mjs',
        'import { shared } from "./helper.mjs";\nexport const agents = ["claude-code"];\nexport default { agents: shared };',
      );
      write(
        dir,
        'helper.mjs',
        'import { agents } from "./axis.config.mjs";\nexport const shared = [...agents];',
      );
      withScenario(dir);
    },
    problem: /^axis\.config\.mjs: could not load the module: .+$/,
  },
  {
    name: 'a config object that refers to itself',
    setup: (dir) => {
      write(
        dir,
        'axis.config.mjs',
        'const c = { agents: ["claude-code"], settings: {} };\nc.settings.again = c;\nexport default c;',
      );
      withScenario(dir);
    },
    problem:
      /^axis\.config\.mjs: settings\.again: expected plain data, found a reference back to the top level \(a cycle\)$/,
  },
  {
    name: 'a config whose export has a throwing getter',
    setup: (dir) => {
      write(dir, 'axis.config.mjs', 'export default { get agents() { throw new Error("getter boom"); } };');
    },
    problem: /^axis\.config\.mjs: agents: reading the value threw: getter boom$/,
  },
  {
    name: 'a config exporting a Proxy whose traps throw',
    setup: (dir) => {
      write(
        dir,
        'axis.config.mjs',
        'const boom = () => { throw new Error("trap boom"); };\nexport default new Proxy({}, { ownKeys: boom, get: boom, has: boom, getOwnPropertyDescriptor: boom });',
      );
    },
    problem: /^axis\.config\.mjs: reading the value threw: trap boom$/,
  },
  {
    name: 'a config exporting a rejected promise',
    setup: (dir) => {
      write(dir, 'axis.config.mjs', 'export default Promise.reject(new Error("nope"));');
    },
    problem: /^axis\.config\.mjs: the default export is a promise that rejected: nope$/,
  },
  {
    name: 'a config whose async function rejects',
    setup: (dir) => {
      write(dir, 'axis.config.mjs', 'export default async () => { throw new Error("async nope"); };');
    },
    problem: /^axis\.config\.mjs: the default-exported function threw: async nope$/,
  }, // --- names that become file names in the report (a file name holds 255 bytes)
  {
    name: 'an agent name too long for its report files',
    setup: (dir) => {
      withConfig(dir, { agents: [{ agent: 'claude-code', name: 'b'.repeat(250) }] });
      withScenario(dir);
    },
    problem:
      /^axis\.config\.json: agents\[0\]: expected an agent name of at most 191 bytes in UTF-8 \(its report files are named after it\), found "b{20}…" \(250 bytes\); set a shorter "name"$/,
  },
  {
    name: 'a variant whose run folder name is too long',
    setup: (dir) => {
      withConfig(dir);
      write(
        dir,
        `scenarios/${'s'.repeat(250)}.json`,
        JSON.stringify({ ...hello, variants: [{ name: 'baseline' }] }),
      );
    },
    problem:
      /^scenarios\/s{250}\.json: variants\[0\]\.name: the report folder of this variant's runs, "s{20}…@baseline", would be 259 bytes long; a file name holds at most 255: shorten the file or variant name$/,
  },
];

describe.each(['validate', 'run'])('axis %s on hostile files', (command) => {
  test.each(cases)('$name', async (c) => {
    const dir = project();
    const extra = c.setup(dir) ?? [];
    const out = await axis([command, ...extra], dir, { budgetMs: 30_000 });
    expect(out.hung, `hung:\n${out.stderr}`).toBe(false);
    expect(out.stderr).not.toMatch(/Internal error|bug in AXIS/);
    const lines = out.stderr.split('\n').map((l) => l.replace(/^ {2}/, ''));
    expect(
      lines.some((l) => c.problem.test(l)),
      out.stderr,
    ).toBe(true);
    expect(out.code, out.stderr).toBe(2);
  });
});

/**
 * Node's timers overflow past 2^31-1 ms (24.8 days) and fire after 1 ms, so a huge limit used to pass
 * validation and then time every job out at once. Every duration field has an upper bound.
 */
describe('durations that would overflow a timer', () => {
  const WEEK_MINUTES = 'expected at most 10080 minutes (7 days)';
  const WEEK_SECONDS = 'expected at most 604800 seconds (7 days)';
  const limits: [name: string, files: Record<string, unknown>, problem: string][] = [
    [
      'settings.limits.scenario.time_minutes',
      { 'axis.config.json': { ...config, settings: { limits: { scenario: { time_minutes: 40_000 } } } } },
      `axis.config.json: settings.limits.scenario.time_minutes: ${WEEK_MINUTES}, found 40000`,
    ],
    [
      'settings.limits.run.time_minutes',
      { 'axis.config.json': { ...config, settings: { limits: { run: { time_minutes: 35_792 } } } } },
      `axis.config.json: settings.limits.run.time_minutes: ${WEEK_MINUTES}, found 35792`,
    ],
    [
      "a scenario's limits.time_minutes",
      { 'scenarios/hello.json': { ...hello, limits: { time_minutes: 1e9 } } },
      `scenarios/hello.json: limits.time_minutes: ${WEEK_MINUTES}, found 1000000000`,
    ],
    [
      "a variant's limits.time_minutes",
      {
        'scenarios/hello.json': { ...hello, variants: [{ name: 'long', limits: { time_minutes: 50_000 } }] },
      },
      `scenarios/hello.json: variants[0].limits.time_minutes: ${WEEK_MINUTES}, found 50000`,
    ],
    [
      'a setup script timeout',
      {
        'scenarios/hello.json': {
          ...hello,
          setup: [{ action: 'run_script', command: 'true', timeout: 3_000_000 }],
        },
      },
      `scenarios/hello.json: setup[0].timeout: ${WEEK_SECONDS}, found 3000000`,
    ],
    [
      'judge.timeout_seconds',
      {
        'axis.config.json': {
          ...config,
          judge: { provider: 'anthropic', timeout_seconds: 2_147_484 },
        },
      },
      `axis.config.json: judge.timeout_seconds: ${WEEK_SECONDS}, found 2147484`,
    ],
    [
      'judge.max_retries',
      { 'axis.config.json': { ...config, judge: { provider: 'anthropic', max_retries: 1e9 } } },
      'axis.config.json: judge.max_retries: expected at most 100 retries, found 1000000000',
    ],
  ];
  test.each(limits)('%s', async (_name, files, problem) => {
    const dir = project({ 'axis.config.json': config, 'scenarios/hello.json': hello, ...files });
    for (const command of ['validate', 'run']) {
      const out = await axis([command], dir);
      expect(
        out.stderr.split('\n').map((l) => l.trim()),
        `${command}:\n${out.stderr}`,
      ).toContain(problem);
      expect(out.code, out.stderr).toBe(2);
    }
  });

  test('the longest allowed limit validates and is shown as it is', async () => {
    const dir = project({
      'axis.config.json': { ...config, settings: { limits: { scenario: { time_minutes: 10_080 } } } },
      'scenarios/hello.json': hello,
    });
    // Keys: validate checks the agents' credentials too.
    const env = { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' };
    const out = await axis(['validate', '--json'], dir, { env });
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(out.stdout))).toContain('"time_minutes":10080');
  });
});

describe('hostile simulator tapes', () => {
  test('axis run with a tape symlinked to /dev/zero names it and exits 2 at once', async () => {
    const dir = project({
      'axis.config.json': { ...config, settings: { simulate: true } },
      'scenarios/hello.json': hello,
    });
    mkdirSync(join(dir, 'tapes'));
    symlinkSync('/dev/zero', join(dir, 'tapes/hello.json'));
    const out = await axis(['run'], dir, { budgetMs: 30_000 });
    expect(out.hung).toBe(false);
    expect(out.stderr).not.toMatch(/Internal error|bug in AXIS/);
    expect(out.stderr).toContain(
      'tapes/hello.json: cannot read tape: expected a regular file, found a character device',
    );
    expect(out.code, out.stderr).toBe(2);
  });
});
