import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { planJobs } from '../../../src/plan/index.js';
import { AxisError, ConfigError } from '../../../src/util/errors.js';
import { hello, project } from './helpers.js';

const load = (dir: string, opts: { profile?: string } = {}) => loadConfig(undefined, { cwd: dir, ...opts });

describe('valid shapes from the spec load', () => {
  test('readme quick start', async () => {
    const dir = project({
      'axis.config.json': { scenarios: './scenarios', agents: ['claude-code'] },
      'scenarios/hello-world.json': {
        name: 'Hello world',
        prompt: 'Navigate to https://example.com and describe what you see on the page.',
        judge: [
          { check: 'Agent visited the target URL', weight: 0.5 },
          { check: 'Agent provided a description of the page content', weight: 0.5 },
        ],
      },
    });
    const loaded = await load(dir);
    expect(loaded.configPath).toBe(join(dir, 'axis.config.json'));
    expect(loaded.configDir).toBe(dir);
    expect(loaded.profile).toBeUndefined();
    expect(loaded.config.agents).toEqual([
      { name: 'claude-code', agent: 'claude-code', flags: {}, env: {}, skills: [], args: [] },
    ]);
    expect(loaded.config.settings).toEqual({
      concurrency: 15,
      runs: 1,
      scoring_weights: { goal_achievement: 0.4, environment: 0.2, service: 0.2, agent: 0.2 },
      limits: { run: {}, scenario: { time_minutes: 15 }, api_failures: 3 },
      thresholds: { baseline_tolerance: 1 },
      simulate: false,
      remotes: { maxDepth: 1, trust_code: false },
      sandbox: 'none',
      network: { mode: 'host', ports: [] },
    });
    const [s] = loaded.scenarios;
    expect(s?.key).toBe('hello-world');
    expect(s?.criteria.map((c) => [c.kind, c.label, c.weight])).toEqual([
      ['judge', 'Agent visited the target URL', 0.5],
      ['judge', 'Agent provided a description of the page content', 0.5],
    ]);
    expect(planJobs(loaded).jobs).toHaveLength(1);
  });

  test('settings.runs: 3 (readme, reducing score volatility)', async () => {
    const dir = project({
      'axis.config.json': { scenarios: './scenarios', agents: ['claude-code'], settings: { runs: 3 } },
      'scenarios/hello-world.json': hello,
    });
    const plan = planJobs(await load(dir));
    expect(plan.jobs.map((j) => j.run)).toEqual([1, 2, 3]);
  });

  test('an upstream config with every top-level field', async () => {
    const dir = project({
      'axis.config.json': {
        name: 'Upstream suite',
        scenarios: ['./scenarios', './extra/one.json'],
        agents: [
          'claude-code',
          { agent: 'claude-code', model: 'claude-opus-4', flags: { verbose: true, 'max-turns': '20' } },
          { agent: 'codex', scenarios: ['*'], skills: ['./skills/agent-only'] },
          { agent: 'echo', command: 'bash adapters/echo.sh' },
        ],
        settings: {
          concurrency: 4,
          scoring_weights: { goal_achievement: 0.5, environment: 0.2, service: 0.2, agent: 0.1 },
          limits: {
            run: { time_minutes: 60, tokens: 2000000 },
            scenario: { time_minutes: 0.5, tokens: 150000 },
          },
          remotes: { maxDepth: 2 },
        },
        env: ['OPENAI_API_KEY', 'MY_SERVICE_TOKEN'],
        mcp_servers: {
          docs: { type: 'stdio', command: 'npx', args: ['-y', 'docs-mcp'], env: { TOKEN: '${DOCS_TOKEN}' } },
          api: {
            type: 'http',
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${API_TOKEN}' },
          },
        },
        judging: { agents: ['codex', { agent: 'claude-code', model: 'sonnet' }] },
        skills: ['./skills/netlify', 'netlify/axis'],
        artifacts: ['dist/**', 'logs/*.txt'],
        adapters: { echo: './adapters/echo.ts' },
        beforeAll: [{ action: 'run_script', command: 'npm run build' }],
        afterAll: [{ action: 'copy', match: 'fixtures/**', destination: 'out' }],
      },
      'adapters/echo.ts': 'export default { name: "echo", run: async () => ({}) };',
      'scenarios/hello.json': hello,
      'extra/one.json': hello,
    });
    const { config, scenarios } = await load(dir);
    expect(config.name).toBe('Upstream suite');
    expect(config.agents.map((a) => a.name)).toEqual([
      'claude-code',
      'claude-code|claude-opus-4',
      'codex',
      'echo',
    ]);
    expect(config.agents[1]).toMatchObject({
      model: 'claude-opus-4',
      flags: { verbose: true, 'max-turns': '20' },
    });
    expect(config.agents[3]).toMatchObject({
      command: 'bash adapters/echo.sh',
      module: join(dir, 'adapters/echo.ts'),
    });
    expect(config.settings.limits).toEqual({
      run: { time_minutes: 60, tokens: 2000000 },
      scenario: { time_minutes: 0.5, tokens: 150000 },
      api_failures: 3,
    });
    expect(config.settings.remotes.maxDepth).toBe(2);
    expect(config.env).toEqual({ pass: ['OPENAI_API_KEY', 'MY_SERVICE_TOKEN'], values: {} });
    expect(config.mcp_servers.api).toEqual({
      type: 'http',
      url: 'https://api.example.com/mcp',
      headers: { Authorization: 'Bearer ${API_TOKEN}' },
    });
    expect(config.judge?.provider).toBe('agent');
    expect(config.judge?.agents.map((a) => a.name)).toEqual(['codex', 'claude-code|sonnet']);
    expect(config.beforeAll).toEqual([{ action: 'run_script', command: 'npm run build', timeout: 180 }]);
    expect(config.afterAll).toEqual([{ action: 'copy', match: 'fixtures/**', destination: 'out' }]);
    expect(config.adapters).toEqual({ echo: join(dir, 'adapters/echo.ts') });
    // The explicitly listed file gets its basename as key.
    expect(scenarios.map((s) => s.key)).toEqual(['hello', 'one']);
  });

  test('an upstream scenario with every field', async () => {
    const dir = project({
      'axis.config.json': {
        agents: ['claude-code', 'codex'],
        settings: { limits: { scenario: { time_minutes: 10, tokens: 1000 } } },
      },
      'scenarios/cms/create-post.json': {
        key: 'cms/create-post',
        name: 'Create a post',
        prompt: 'Create a blog post titled Hello.',
        rubric: 'A post titled Hello exists',
        skip: false,
        setup: [
          { action: 'copy', match: 'fixtures/cms/**', destination: '.' },
          { action: 'run_script', command: 'npm install', timeout: 300 },
        ],
        teardown: [{ action: 'run_script', command: 'rm -rf node_modules' }],
        agents: ['Claude-Code'],
        skills: ['./skills/cms'],
        mcp_servers: { cms: { type: 'stdio', command: 'cms-mcp' } },
        limits: { tokens: 500 },
        artifacts: ['posts/*.md'],
      },
    });
    const { scenarios } = await load(dir);
    expect(scenarios).toHaveLength(1);
    const s = scenarios[0]!;
    expect(s).toMatchObject({
      key: 'cms/create-post',
      baseKey: 'cms/create-post',
      name: 'Create a post',
      skip: false,
      agents: ['claude-code'],
      skills: ['./skills/cms'],
      artifacts: ['posts/*.md'],
      limits: { time_minutes: 10, tokens: 500 }, // merged field-wise over settings.limits.scenario
      file: join(dir, 'scenarios/cms/create-post.json'),
    });
    expect(s.setup[1]).toEqual({ action: 'run_script', command: 'npm install', timeout: 300 });
    expect(s.teardown[0]).toEqual({ action: 'run_script', command: 'rm -rf node_modules', timeout: 180 });
    expect(s.criteria).toEqual([
      {
        kind: 'judge',
        index: 0,
        label: 'A post titled Hello exists',
        weight: 1,
        check: 'A post titled Hello exists',
      },
    ]);
  });

  test('$schema is accepted in configs and scenarios', async () => {
    const dir = project({
      'axis.config.json': {
        $schema: './node_modules/axis-eval/schema/axis.config.schema.json',
        agents: ['codex'],
      },
      'scenarios/a.json': { $schema: '../node_modules/axis-eval/schema/scenario.schema.json', ...hello },
    });
    expect((await load(dir)).scenarios.map((s) => s.key)).toEqual(['a']);
  });

  test('deterministic checks are normalized with their defaults and labels', async () => {
    const dir = project({
      'axis.config.json': { agents: ['codex'] },
      'scenarios/c.json': {
        name: 'c',
        prompt: 'p',
        judge: [{ check: 'looks right', weight: 0.4 }],
        checks: [
          { run: 'npm test' },
          { file: 'out/a.txt', exists: false, name: 'no stray file' },
          { file: 'a.txt', contains: 'hi' },
          { file: 'a.txt', matches: '/^hi$/m' },
          { result_matches: 'done' },
          { http: { url: 'http://127.0.0.1:3000/health', contains: 'ok' } },
        ],
      },
    });
    const [s] = (await load(dir)).scenarios;
    expect(s!.criteria.map((c) => [c.kind, c.index, c.label, Math.round(c.weight * 1000) / 1000])).toEqual([
      ['judge', 0, 'looks right', 0.4],
      ['check', 0, '`npm test` exits with 0', 0.1],
      ['check', 1, 'no stray file', 0.1],
      ['check', 2, 'a.txt contains "hi"', 0.1],
      ['check', 3, 'a.txt matches /^hi$/m', 0.1],
      ['check', 4, 'final answer matches done', 0.1],
      ['check', 5, 'GET http://127.0.0.1:3000/health returns 200 with "ok"', 0.1],
    ]);
    expect(s!.criteria[6]).toMatchObject({
      check: {
        kind: 'http',
        http: { url: 'http://127.0.0.1:3000/health', status: 200, method: 'GET', contains: 'ok' },
      },
    });
    expect(s!.criteria[1]).toMatchObject({ check: { kind: 'run', run: 'npm test', expect_exit: 0 } });
  });
});

describe('discovery', () => {
  test('keys come from paths, sorted; helpers under _ and dot dirs are ignored; modules load', async () => {
    const dir = project({
      'axis.config.json': { agents: ['codex'] },
      'scenarios/zeta.json': hello,
      'scenarios/cms/create-post.ts': [
        "import { defineScenario } from 'axis-eval';",
        "import { judge } from './_shared.ts';",
        "export default defineScenario({ name: 'Create post', prompt: 'Create a post', judge });",
      ].join('\n'),
      'scenarios/cms/_shared.ts': "export const judge = 'A post exists';",
      'scenarios/cms/list.mjs':
        "export default async () => ({ name: 'List', prompt: 'List posts', judge: 'Listed' });",
      'scenarios/_fixtures/data.json': { not: 'a scenario' },
      'scenarios/.hidden/x.json': { not: 'a scenario' },
      'scenarios/node_modules/pkg/index.js': 'module.exports = 1;',
      'scenarios/README.md': '# not a scenario',
    });
    const { scenarios } = await load(dir);
    expect(scenarios.map((s) => [s.key, s.name])).toEqual([
      ['cms/create-post', 'Create post'],
      ['cms/list', 'List'],
      ['zeta', 'Hello'],
    ]);
  });

  test('glob sources key files relative to the glob base', async () => {
    const dir = project({
      'axis.config.json': { agents: ['codex'], scenarios: ['./suites/**/*.json'] },
      'suites/a/one.json': hello,
      'suites/two.json': hello,
      'suites/a/ignored.ts': 'export default {};',
    });
    expect((await load(dir)).scenarios.map((s) => s.key)).toEqual(['a/one', 'two']);
  });

  test('the config is found upward from a nested cwd', async () => {
    const dir = project({ 'axis.config.json': { agents: ['codex'] }, 'scenarios/a.json': hello });
    const nested = join(dir, 'packages/app/src');
    mkdirSync(nested, { recursive: true });
    const loaded = await loadConfig(undefined, { cwd: nested });
    expect(loaded.configPath).toBe(join(dir, 'axis.config.json'));
    // -c also takes a directory
    expect((await loadConfig(dir, { cwd: nested })).configPath).toBe(join(dir, 'axis.config.json'));
  });

  test('no config: the error lists what was searched', async () => {
    const dir = project({ 'readme.txt': 'empty project' });
    const err = await loadConfig(undefined, { cwd: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AxisError);
    expect((err as AxisError).exitCode).toBe(2);
    expect((err as AxisError).message).toContain(
      `looked for axis.config.ts, axis.config.mts, axis.config.js, axis.config.mjs, axis.config.cjs, axis.config.json in ${dir} and every parent directory up to /`,
    );
  });

  test('two configs in one folder are ambiguous', async () => {
    const dir = project({ 'axis.config.json': { agents: ['codex'] }, 'axis.config.ts': 'export default {}' });
    const err = await loadConfig(undefined, { cwd: dir }).catch((e: unknown) => e);
    expect((err as AxisError).message).toBe(
      'Found more than one config in .: axis.config.ts, axis.config.json. Keep one, or pass -c <path>.',
    );
  });
});

describe('TS and JS configs', () => {
  test('a TS config using defineConfig loads through jiti, with inline scenarios', async () => {
    const dir = project({
      'axis.config.ts': [
        "import { defineConfig, type AxisConfig } from 'axis-eval';",
        "const agents: AxisConfig['agents'] = ['claude-code', { agent: 'codex', model: 'gpt-5' }];",
        'export default defineConfig({',
        '  agents,',
        "  scenarios: ['./scenarios', { key: 'inline/hi', name: 'Inline', prompt: 'Say hi', judge: 'Said hi' }],",
        '  settings: { runs: 3 },',
        '});',
      ].join('\n'),
      'scenarios/a.json': hello,
    });
    const loaded = await load(dir);
    expect(loaded.config.agents.map((a) => a.name)).toEqual(['claude-code', 'codex|gpt-5']);
    expect(loaded.scenarios.map((s) => [s.key, s.file])).toEqual([
      ['a', join(dir, 'scenarios/a.json')],
      ['inline/hi', undefined],
    ]);
    expect(loaded.config.settings.runs).toBe(3);
  });

  test('a function default export is called exactly once (async allowed)', async () => {
    const dir = project({
      'axis.config.mjs': [
        "import { appendFileSync } from 'node:fs';",
        'export default async () => {',
        "  appendFileSync(new URL('./calls.log', import.meta.url), 'called\\n');",
        "  return { agents: ['gemini'] };",
        '};',
      ].join('\n'),
      'scenarios/a.json': hello,
    });
    const loaded = await load(dir);
    expect(loaded.config.agents[0]?.name).toBe('gemini');
    expect(readFileSync(join(dir, 'calls.log'), 'utf8')).toBe('called\n');
  });

  test('a CommonJS config', async () => {
    const dir = project({
      'axis.config.cjs': "module.exports = { agents: ['opencode'] };",
      'scenarios/a.json': hello,
    });
    expect((await load(dir)).config.agents[0]?.agent).toBe('opencode');
  });
});

describe('agents', () => {
  test('identities are lowercase, models sanitized, names override', async () => {
    const dir = project({
      'axis.config.json': {
        agents: [
          { agent: 'Claude-Code', model: 'Anthropic/Claude 3.5 Sonnet' },
          { agent: 'codex', name: 'Codex-Fast', model: 'gpt-5-mini', env: { CODEX_HOME_HINT: 'x' } },
          { agent: 'command', command: './bin/my-agent', args: ['--json'] },
          { agent: 'acp', command: 'my-acp-agent', args: ['--acp'] },
        ],
        env: { SERVICE_URL: 'http://127.0.0.1:3000' },
      },
      'scenarios/a.json': hello,
    });
    const { config } = await load(dir);
    expect(config.agents.map((a) => a.name)).toEqual([
      'claude-code|anthropic-claude-3.5-sonnet',
      'codex-fast',
      'command',
      'acp',
    ]);
    expect(config.agents[0]?.model).toBe('Anthropic/Claude 3.5 Sonnet');
    expect(config.agents[1]?.env).toEqual({ CODEX_HOME_HINT: 'x' });
    expect(config.agents[2]).toMatchObject({
      command: './bin/my-agent',
      args: ['--json'],
      prompt_via: 'stdin',
      output: 'text',
    });
    expect(config.agents[3]?.prompt_via).toBeUndefined();
    expect(config.env).toEqual({ pass: [], values: { SERVICE_URL: 'http://127.0.0.1:3000' } });
  });

  test('judge config: defaults filled, provider agent', async () => {
    const dir = project({
      'axis.config.json': {
        agents: ['codex'],
        judge: { provider: 'anthropic', model: 'claude-sonnet-4', api_key_env: 'ANTHROPIC_API_KEY' },
        profiles: {
          local: {
            judge: {
              provider: 'agent',
              agent: { agent: 'claude-code', model: 'haiku' },
              timeout_seconds: 60,
            },
          },
        },
      },
      'scenarios/a.json': hello,
    });
    expect((await load(dir)).config.judge).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4',
      api_key_env: 'ANTHROPIC_API_KEY',
      agents: [],
      max_retries: 3,
      timeout_seconds: 120,
    });
    const local = (await load(dir, { profile: 'local' })).config.judge;
    // Another provider replaces the judge whole: the anthropic model and key are not carried over.
    expect(local).toMatchObject({ provider: 'agent', max_retries: 3, timeout_seconds: 60 });
    expect(local).not.toHaveProperty('model');
    expect(local).not.toHaveProperty('api_key_env');
    expect(local?.agents.map((a) => a.name)).toEqual(['claude-code|haiku']);
  });
});

describe('simulate and tapes', () => {
  test('tapes: explicit tape, <tapes>/<key>.json, and variants falling back to the base key', async () => {
    const dir = project({
      'axis.config.json': { agents: ['codex'], settings: { simulate: { tapes: './recordings' } } },
      'scenarios/cms/post.json': { ...hello, variants: [{ name: 'own' }, { name: 'shared' }] },
      'scenarios/explicit.json': { ...hello, tape: '../fixtures/explicit.tape.json' },
      'recordings/cms/post.json': '{}',
      'recordings/cms/post@own.json': '{}',
      'fixtures/explicit.tape.json': '{}',
    });
    const { config, scenarios } = await load(dir);
    expect(config.settings.simulate).toEqual({ tapes: join(dir, 'recordings') });
    expect(scenarios.map((s) => [s.key, s.tape])).toEqual([
      ['cms/post@own', join(dir, 'recordings/cms/post@own.json')],
      ['cms/post@shared', join(dir, 'recordings/cms/post.json')],
      ['explicit', join(dir, 'fixtures/explicit.tape.json')],
    ]);
  });

  test('simulate: true uses ./tapes next to the config', async () => {
    const dir = project({
      'axis.config.json': { agents: ['codex'], settings: { simulate: true } },
      'scenarios/a.json': hello,
      'tapes/a.json': '{}',
    });
    expect((await load(dir)).scenarios[0]?.tape).toBe(join(dir, 'tapes/a.json'));
    expect(existsSync(join(dir, 'tapes/a.json'))).toBe(true);
  });

  test('skipped scenarios need no tape', async () => {
    const dir = project({
      'axis.config.json': { agents: ['codex'], settings: { simulate: true } },
      'scenarios/a.json': { ...hello, skip: true },
    });
    expect((await load(dir)).scenarios[0]?.skip).toBe(true);
  });
});

test('ConfigError carries exit code 2 and a readable message', async () => {
  const dir = project({
    'axis.config.json': { agents: ['codex'], settings: { runs: 4 } },
    'scenarios/a.json': hello,
  });
  const err = (await load(dir).catch((e: unknown) => e)) as ConfigError;
  expect(err).toBeInstanceOf(ConfigError);
  expect(err.exitCode).toBe(2);
  expect(err.message.split('\n')[0]).toBe('Invalid configuration (1 problem):');
  expect(err.message).toContain('  axis.config.json: settings.runs: expected an odd number of runs, found 4');
});
