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
