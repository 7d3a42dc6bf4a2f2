import { spawn } from 'node:child_process';
import {
  existsSync,
  readdirSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const bin = join(root, 'bin/axis.js');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A key for every agent init writes: validate checks credentials too (credentials-one-pass.test.ts). */
const KEYS = { ANTHROPIC_API_KEY: 'test-key', OPENAI_API_KEY: 'test-key', GEMINI_API_KEY: 'test-key' };

function axis(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...KEYS, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const dirs: string[] = [];
const tmp = () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-init-e2e-')));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  // dist/ is built once by test/global-setup.ts.
  if (!existsSync(join(root, 'dist/cli/commands/init.js')))
    throw new Error('dist/ is missing: run `npm run build`');
});

describe('axis init + validate', () => {
  test('init in an empty dir, then validate succeeds', async () => {
    const dir = tmp();
    const init = await axis(['init', '--no-skills'], dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'Created axis.config.json\nCreated scenarios/hello-world.json\nCreated tapes/hello-world.json\nUpdated .gitignore\n',
    );
    expect(JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'))).toEqual({
      $schema: './node_modules/axis-eval/schema/axis.config.schema.json',
      scenarios: './scenarios',
      agents: ['claude-code'],
    });
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      '.axis/reports/\n.axis/remotes/\n.axis/repos/\n.axis/skills-cache/\n.axis/cache/\n.axis/blobs/\n',
    );

    const validate = await axis(['validate'], dir);
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain('Config       axis.config.json');
    expect(validate.stdout).toMatch(
      /hello-world +Hello world +4 criteria \(judge 0\.25, judge 0\.25, check 0\.25, check 0\.25\)/,
    );
    expect(validate.stdout).toMatch(
      /Jobs: 1 job = 1 scenario × agent pair × 1 run\n +hello-world +claude-code +run 1/,
    );
    expect(validate.stdout).toContain('✓ Configuration is valid.');
  });

  test('init twice without -f refuses, names the files and changes nothing; -f overwrites', async () => {
    const dir = tmp();
    expect((await axis(['init', '--no-skills'], dir)).code).toBe(0);
    const configPath = join(dir, 'axis.config.json');
    writeFileSync(configPath, '{ "agents": ["codex"] }\n');
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
    const scenarioBefore = readFileSync(join(dir, 'scenarios/hello-world.json'), 'utf8');

    const again = await axis(['init', '--no-skills'], dir);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(
      'axis.config.json and scenarios/hello-world.json already exist; nothing was written. Use --force to overwrite.\n',
    );
    expect(readFileSync(configPath, 'utf8')).toBe('{ "agents": ["codex"] }\n');
    expect(readFileSync(join(dir, 'scenarios/hello-world.json'), 'utf8')).toBe(scenarioBefore);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n');

    const forced = await axis(['init', '--no-skills', '-f', '-a', 'codex'], dir);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(configPath, 'utf8')).agents).toEqual(['codex']);
    // Existing lines are kept and nothing is duplicated.
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe(
      'node_modules\n.axis/reports/\n.axis/remotes/\n.axis/repos/\n.axis/skills-cache/\n.axis/cache/\n.axis/blobs/\n',
    );
  });

  test('init --format ts with several agents and a custom scenarios dir validates (defineConfig via jiti)', async () => {
    const dir = tmp();
    const init = await axis(
      ['init', '--no-skills', '--format', 'ts', '-a', 'codex, Gemini', '-s', 'tests/axis'],
      dir,
    );
    expect(init.code).toBe(0);
    expect(readFileSync(join(dir, 'axis.config.ts'), 'utf8')).toBe(
      "import { defineConfig } from 'axis-eval';\n\nexport default defineConfig({\n  scenarios: './tests/axis',\n  agents: ['codex', 'gemini'],\n});\n",
    );
    const validate = await axis(['validate', '--json'], dir);
    expect(validate.code).toBe(0);
    const plan = JSON.parse(validate.stdout) as { valid: boolean; jobs: unknown[]; configPath: string };
    expect(plan.valid).toBe(true);
    expect(plan.configPath).toBe('axis.config.ts');
    expect(plan.jobs).toEqual([
      { scenario: 'hello-world', agent: 'codex', run: 1 },
      { scenario: 'hello-world', agent: 'gemini', run: 1 },
    ]);
  });

  test('init rejects unknown agents and writes nothing', async () => {
    const dir = tmp();
    const r = await axis(['init', '--no-skills', '-a', 'claude-code,cursor'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'Unknown agent for --agent: cursor. Built-in agents: claude-code, codex, gemini, qwen-code, opencode, acp, command; the ACP presets: `axis agents`.\n',
    );
    const none = await axis(['init', '--no-skills', '-a', ' , '], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      '--agent: expected one or more agent names, found " , ". Built-in agents: claude-code, codex, gemini, qwen-code, opencode, acp, command.\n',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  test('init copies the shipped AXIS skills into each chosen agent project skill folder, offline, running nothing', async () => {
    const dir = tmp();
    const r = await axis(['init', '-a', 'claude-code,codex,gemini'], dir, {
      npm_config_offline: 'true',
      npm_config_registry: 'http://127.0.0.1:9',
      PATH: '/nonexistent',
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'Installed the AXIS skills (using-axis, configure-axis) into .claude/skills, .agents/skills, .gemini/skills\n',
    );
    for (const d of ['.claude/skills', '.agents/skills', '.gemini/skills']) {
      for (const name of ['using-axis', 'configure-axis']) {
        const text = readFileSync(join(dir, d, name, 'SKILL.md'), 'utf8');
        expect(text).toContain(`name: ${name}`);
        expect(text).toContain('axis-eval');
        expect(text).not.toContain('netlify');
      }
    }
    expect(existsSync(join(dir, '.qwen'))).toBe(false);
    const none = tmp();
    const skip = await axis(['init', '--no-skills'], none);
    expect(skip.code).toBe(0);
    expect(existsSync(join(none, '.claude'))).toBe(false);
  });

  test('the skills folder ships in the package', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('skills');
  });
});

describe('axis validate', () => {
  test('a broken config exits 2 with every error of every file and no stack trace', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ agents: ['claud-code'], settings: { runs: 2 } }),
    );
    mkdirSync(join(dir, 'scenarios/cms'), { recursive: true });
    writeFileSync(
      join(dir, 'scenarios/cms/post.json'),
      JSON.stringify({ name: 'Post', prompt: '', judge: 'ok' }),
    );
    writeFileSync(join(dir, 'scenarios/broken.json'), '{ "name": "x",, }');
    writeFileSync(
      join(dir, 'scenarios/weights.json'),
      JSON.stringify({ name: 'W', prompt: 'p', judge: [{ check: 'x', weight: 2 }] }),
    );

    const r = await axis(['validate'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toBe(
      [
        'Invalid configuration (5 problems):',
        '  axis.config.json: settings.runs: expected an odd number of runs, found 2: an even sample has no middle run, so the median falls between two runs and the headline belongs to none of them',
        '  axis.config.json: agents[0]: unknown agent "claud-code"; did you mean "claude-code"? Built-in agents: claude-code, codex, gemini, qwen-code, opencode, acp, command; add custom ones under "adapters". Any ACP agent runs as { "agent": "acp", "command": "<executable>" }; `axis agents` lists the presets',
        '  scenarios/broken.json: invalid JSON at line 1, column 15: expected a property name in double quotes, found ","',
        '  scenarios/cms/post.json: prompt: expected a non-empty prompt, found an empty string',
        '  scenarios/weights.json: expected criterion weights to sum to at most 1, found 2 (judge[0] 2)',
        '',
      ].join('\n'),
    );
  });

  test('a broken simulator tape exits 2 naming the tape and the step, as axis run does', async () => {
    const dir = tmp();
    const config = { agents: ['claude-code'], settings: { simulate: true } };
    writeFileSync(join(dir, 'axis.config.json'), JSON.stringify(config));
    mkdirSync(join(dir, 'scenarios'));
    mkdirSync(join(dir, 'tapes'));
    writeFileSync(
      join(dir, 'scenarios/hello.json'),
      JSON.stringify({ name: 'Hello', prompt: 'p', judge: [{ check: 'x', weight: 1 }] }),
    );
    writeFileSync(join(dir, 'tapes/hello.json'), JSON.stringify({ turns: [{ tools: [{ shel: 'ls' }] }] }));
    const r = await axis(['validate'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toContain('Invalid configuration (1 problem)');
    expect(r.stderr).toMatch(/tapes\/hello\.json: turns\[0\]\.tools\[0\]: .*unknown tool "shel"/);
  });

  test('--json reports problems as JSON too', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ agents: [] }));
    const r = await axis(['validate', '--json'], dir);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      valid: false,
      issues: [
        {
          file: 'axis.config.json',
          path: 'agents',
          message: 'expected at least one agent, found an empty array',
        },
        {
          file: 'axis.config.json',
          path: 'scenarios',
          message: `expected an existing file or directory, found "./scenarios" (${join(dir, 'scenarios')} does not exist)`,
        },
      ],
    });
  });

  test('--json shows agents’ env values named like secrets as [REDACTED], as report files do', async () => {
    const dir = tmp();
    const secret = 'svc-Token-5551234567';
    const env = { SERVICE_TOKEN: secret, SERVICE_URL: 'http://127.0.0.1:3000' };
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        agents: [{ agent: 'claude-code', env }],
        scenarios: [{ key: 's', name: 'S', prompt: 'go', judge: 'did it' }],
      }),
    );
    const r = await axis(['validate', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(secret);
    expect((JSON.parse(r.stdout) as { agents: { env: unknown }[] }).agents[0]!.env).toEqual({
      SERVICE_TOKEN: '[REDACTED]',
      SERVICE_URL: 'http://127.0.0.1:3000',
    });
  });

  test('filters, profiles and -c', async () => {
    const dir = tmp();
    expect((await axis(['init', '--no-skills', '-a', 'claude-code,codex'], dir)).code).toBe(0);
    const filtered = await axis(['validate', '-a', 'codex', '-s', 'hello-*'], dir);
    expect(filtered.code).toBe(0);
    expect(filtered.stdout).toMatch(
      /Jobs: 1 job = 1 scenario × agent pair × 1 run\n +hello-world +codex +run 1\n/,
    );

    const noMatch = await axis(['validate', '-s', 'cms/*'], dir);
    expect(noMatch.code).toBe(2);
    expect(noMatch.stderr).toBe('No scenario matches "cms/*". Available scenarios: hello-world\n');

    const profile = await axis(['validate', '--profile', 'ci'], dir);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain(
      'axis.config.json: profiles: no profile named "ci": the config declares no profiles',
    );

    const quickstart = await axis(
      ['validate', '-c', join(root, 'examples/quickstart/axis.config.json')],
      dir,
    );
    expect(quickstart.stderr).toBe('');
    expect(quickstart.code).toBe(0);
    expect(quickstart.stdout).toMatch(/Jobs: 3 jobs = 3 scenario × agent pairs × 1 run/);
    // Under simulate the configured judge's requests go to the simulator: the summary says so.
    expect(quickstart.stdout).toContain(
      'Judge        default · answered by the simulator (settings.simulate)\n',
    );
  });

  test('the summary lists every threshold set, reliability as a percent as written', async () => {
    const dir = tmp();
    expect((await axis(['init', '--no-skills'], dir)).code).toBe(0);
    const configPath = join(dir, 'axis.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    config.settings = { thresholds: { axis_score: 80, reliability: 0.675 } };
    writeFileSync(configPath, JSON.stringify(config));
    const r = await axis(['validate'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Thresholds   axis_score ≥ 80 · reliability ≥ 67.5% · baseline tolerance 1\n');
    expect(r.stdout).toContain('Judge        default\n');
  });

  test('--help for init and validate', async () => {
    const dir = tmp();
    const init = await axis(['init', '--help'], dir);
    expect(init.code).toBe(0);
    for (const flag of [
      '-s, --scenarios <path>',
      '-a, --agent <names>',
      '--format <format>',
      '-f, --force',
      '--no-skills',
    ]) {
      expect(init.stdout).toContain(flag);
    }
    const validate = await axis(['validate', '--help'], dir);
    expect(validate.code).toBe(0);
    for (const flag of [
      '-c, --config <path>',
      '--profile <name>',
      '-s, --scenario <keys>',
      '-a, --agent <names>',
      '--json',
    ]) {
      expect(validate.stdout).toContain(flag);
    }
  });
});
