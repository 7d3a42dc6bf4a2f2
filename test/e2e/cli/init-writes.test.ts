/** `axis init` with awkward paths: odd characters in names, and folders it cannot write to. */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

const dirs: string[] = [];
const tmp = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-init-writes-')));
  dirs.push(dir);
  return dir;
};
beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A key for every agent init writes: validate checks credentials too (credentials-one-pass.test.ts). */
const KEYS = { ANTHROPIC_API_KEY: 'test-key', OPENAI_API_KEY: 'test-key', GEMINI_API_KEY: 'test-key' };

describe('axis init writes', () => {
  it.each(['tests[1]', 'a*b', 'x{y,z}'])(
    '-s %s: a folder whose name looks like a glob is read as that folder (keys relative to it)',
    async (path) => {
      const dir = tmp();
      expect((await axis(['init', '--no-skills', '-s', path], dir)).code).toBe(0);
      const validate = await axis(['validate', '--json'], dir, KEYS);
      expect(validate.code, validate.stderr).toBe(0);
      const plan = JSON.parse(validate.stdout) as { scenarios: { key: string }[] };
      expect(plan.scenarios.map((s) => s.key)).toEqual(['hello-world']);
    },
  );

  it.each(['js', 'ts'])(
    '--format %s with a quote in the scenarios path writes a config that loads',
    async (f) => {
      const dir = tmp();
      const init = await axis(['init', '--no-skills', '--format', f, '-s', `it's "here"`], dir);
      expect(init.code, init.stderr).toBe(0);
      const validate = await axis(['validate', '--json'], dir, KEYS);
      expect(validate.code, validate.stderr).toBe(0);
      const plan = JSON.parse(validate.stdout) as { scenarios: { key: string; file: string }[] };
      expect(plan.scenarios.map((s) => s.key)).toEqual(['hello-world']);
    },
  );

  it.each(['notes/axis', 'notes'])(
    'scenarios path %s where notes is a file: exit 1 naming the path, no internal error, nothing left behind',
    async (path) => {
      const dir = tmp();
      writeFileSync(join(dir, 'notes'), 'x\n');
      const r = await axis(['init', '-s', path], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `Cannot write ${path}/hello-world.json: a file is in the way of a folder on its path. Nothing was written.\n`,
      );
      expect(readdirSync(dir)).toEqual(['notes']);
    },
  );

  it('a folder where --force would write the scenario: exit 1 naming it, the old config kept', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'axis.config.json'), '{ "agents": ["codex"] }\n');
    mkdirSync(join(dir, 'scenarios/hello-world.json'), { recursive: true });
    const r = await axis(['init', '--no-skills', '-f'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Cannot write scenarios/hello-world.json: a directory is in the way. Nothing was written.\n',
    );
    expect(readFileSync(join(dir, 'axis.config.json'), 'utf8')).toBe('{ "agents": ["codex"] }\n');
    expect(readdirSync(dir).sort()).toEqual(['axis.config.json', 'scenarios']);
  });

  it.each([
    ['axis.config.mjs', 'remove it first.'],
    ['axis.config.cjs', 'remove it first.'],
    ['axis.config.ts', 'remove it first, or run init with --format ts --force.'],
  ])('another config %s: the refusal suggests only what init can do', async (name, advice) => {
    const dir = tmp();
    writeFileSync(join(dir, name), 'export default {};\n');
    const r = await axis(['init', '-f'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${name} already exists; nothing was written. Two configs in one folder are ambiguous: ${advice}\n`,
    );
    expect(readdirSync(dir)).toEqual([name]);
  });

  it('a skill file the user changed is not overwritten without -f; an identical one is no obstacle', async () => {
    const dir = tmp();
    const first = await axis(['init', '-a', 'codex'], dir);
    expect(first.code, first.stderr).toBe(0);
    rmSync(join(dir, 'axis.config.json'));
    rmSync(join(dir, 'scenarios'), { recursive: true });
    const skill = join(dir, '.agents/skills/using-axis/SKILL.md');
    writeFileSync(skill, 'my notes\n');
    const again = await axis(['init', '-a', 'codex'], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      '.agents/skills/using-axis/SKILL.md already exists; nothing was written. Use --force to overwrite.\n',
    );
    expect(readFileSync(skill, 'utf8')).toBe('my notes\n');
    expect(readdirSync(dir).sort()).toEqual(['.agents', '.gitignore', 'tapes']);
    const forced = await axis(['init', '-a', 'codex', '-f'], dir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(skill, 'utf8')).toContain('name: using-axis');
    rmSync(join(dir, 'axis.config.json'));
    const same = await axis(['init', '-a', 'codex'], dir);
    expect(same.stderr).toBe(
      'scenarios/hello-world.json already exists; nothing was written. Use --force to overwrite.\n',
    );
  });

  it('-a takes ACP presets, as upstream init took them: written as named, no skill folder for them', async () => {
    const dir = tmp();
    const r = await axis(['init', '-a', 'claude-code,Goose,codex-sdk'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Installed the AXIS skills (using-axis, configure-axis) into .claude/skills\n',
    );
    expect(JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8')).agents).toEqual([
      'claude-code',
      'goose',
      'codex-sdk',
    ]);
    const validate = await axis(['validate', '--json'], dir, KEYS);
    expect(validate.code, validate.stderr).toBe(0);
    const bad = await axis(['init', '-f', '-a', 'gooose'], tmp());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown agent for --agent: gooose; did you mean "goose"?');
  });

  it.each([
    ['.gitignore', 'Cannot write .gitignore: a directory is in the way.'],
    [
      '.claude/skills/using-axis',
      'Cannot write .claude/skills/using-axis/SKILL.md: a file is in the way of a folder on its path.',
    ],
  ])('%s in the way: exit 1 naming it, nothing written', async (path, message) => {
    const dir = tmp();
    if (path === '.gitignore') mkdirSync(join(dir, path));
    else {
      mkdirSync(join(dir, '.claude/skills'), { recursive: true });
      writeFileSync(join(dir, path), 'x\n');
    }
    const r = await axis(['init'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${message} Nothing was written.\n`);
    expect(readdirSync(dir)).toEqual([path.split('/')[0]]);
  });

  it('the refusal names each existing file whole, a comma in the scenarios path included', async () => {
    const dir = tmp();
    expect((await axis(['init', '--no-skills', '-s', 'x, y'], dir)).code).toBe(0);
    const again = await axis(['init', '--no-skills', '-s', 'x, y'], dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'axis.config.json and x, y/hello-world.json already exist; nothing was written. Use --force to overwrite.\n',
    );
  });

  it('-f says which files it replaced rather than claiming it created them', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'axis.config.json'), '{ "agents": ["codex"] }\n');
    const r = await axis(['init', '--no-skills', '-f'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Replaced axis.config.json\nCreated scenarios/hello-world.json\n');
  });

  it('a .gitignore with CRLF line ends gets its AXIS lines with CRLF too', async () => {
    const dir = tmp();
    writeFileSync(join(dir, '.gitignore'), 'node_modules\r\n.axis/reports/\r\n');
    expect((await axis(['init', '--no-skills'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules\r\n.axis/reports/\r\n.axis/remotes/\r\n.axis/repos/\r\n.axis/skills-cache/\r\n.axis/cache/\r\n.axis/blobs/\r\n',
    );
  });

  it('a line anchored at the root (/.axis/cache) counts as present: init does not add it again', async () => {
    const dir = tmp();
    writeFileSync(join(dir, '.gitignore'), '/.axis/reports/\n/.axis/cache\n');
    expect((await axis(['init', '--no-skills'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      '/.axis/reports/\n/.axis/cache\n.axis/remotes/\n.axis/repos/\n.axis/skills-cache/\n.axis/blobs/\n',
    );
  });

  it.each([
    ['axis.config.json', 'axis.config.json', 'it is'],
    ['scenarios', 'scenarios/hello-world.json', 'scenarios is'],
    ['.gitignore', '.gitignore', 'it is'],
    ['.claude/skills/using-axis/SKILL.md', '.claude/skills/using-axis/SKILL.md', 'it is'],
  ])(
    'a dangling symlink at %s: exit 1 naming it, nothing created at its target, the link kept (also with -f)',
    async (link, file, subject) => {
      const dir = tmp();
      const target = join(tmp(), 'missing');
      mkdirSync(join(dir, link, '..'), { recursive: true });
      symlinkSync(target, join(dir, link));
      for (const args of [['init'], ['init', '-f']]) {
        const r = await axis(args, dir);
        expect(r.code).toBe(1);
        expect(r.stderr).toBe(
          `Cannot write ${file}: ${subject} a symbolic link to ${target}, which does not exist. Nothing was written.\n`,
        );
        expect(readdirSync(join(target, '..'))).toEqual([]);
        expect(readdirSync(dir)).toEqual([link.split('/')[0]]);
      }
    },
  );

  it('-a given twice takes both agents, as -a does in validate and run (the first was dropped)', async () => {
    const dir = tmp();
    const r = await axis(['init', '--no-skills', '-a', 'codex', '-a', 'gemini,codex'], dir);
    expect(r.code, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8')) as { agents: string[] };
    expect(config.agents).toEqual(['codex', 'gemini']);
    const help = await axis(['init', '--help'], dir);
    expect(help.stdout).toMatch(
      /-a, --agent <names> +comma-separated or repeated agents[^]*\(default: "claude-code"\)/,
    );
  });
});
