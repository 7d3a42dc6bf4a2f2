import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { mergeOverlay } from '../../../src/config/profiles.js';
import { planJobs } from '../../../src/plan/index.js';
import { classifyTool } from '../../../src/scoring/classify.js';
import { hello, issuesOf, project } from './helpers.js';

describe('mergeOverlay', () => {
  test('objects deep-merge, arrays and scalars replace, MCP servers replace whole', () => {
    const base = {
      agents: ['claude-code', 'codex'],
      settings: { runs: 1, concurrency: 4, limits: { scenario: { time_minutes: 10, tokens: 100 } } },
      mcp_servers: { a: { type: 'stdio', command: 'x', args: ['1'] }, b: { type: 'http', url: 'http://b' } },
      env: ['A'],
    };
    const merged = mergeOverlay(base, {
      agents: ['gemini'],
      settings: { runs: 3, limits: { scenario: { tokens: 500 } } },
      mcp_servers: { a: { type: 'http', url: 'http://a' } },
      env: { B: '1' },
    });
    expect(merged).toEqual({
      agents: ['gemini'],
      settings: { runs: 3, concurrency: 4, limits: { scenario: { time_minutes: 10, tokens: 500 } } },
      mcp_servers: { a: { type: 'http', url: 'http://a' }, b: { type: 'http', url: 'http://b' } },
      env: { B: '1' },
    });
    expect(base.settings.runs).toBe(1); // the base is not mutated
  });
});

describe('mergeOverlay: the judge', () => {
  const base = { judge: { provider: 'anthropic', model: 'claude-sonnet-4-5', max_retries: 5 } };

  test('the same provider deep-merges', () => {
    expect(mergeOverlay(base, { judge: { provider: 'anthropic', timeout_seconds: 30 } })).toEqual({
      judge: { provider: 'anthropic', model: 'claude-sonnet-4-5', max_retries: 5, timeout_seconds: 30 },
    });
    expect(mergeOverlay(base, { judge: { max_retries: 0 } })).toEqual({
      judge: { provider: 'anthropic', model: 'claude-sonnet-4-5', max_retries: 0 },
    });
  });

  test("another provider replaces the judge whole: the base's model is not sent to it", () => {
    const local = { provider: 'openai', base_url: 'http://127.0.0.1:11434/v1' };
    expect(mergeOverlay(base, { judge: local })).toEqual({ judge: local });
  });

  test('a profile switching to an agent judge loads, without the base judge model', async () => {
    const dir = project({
      'axis.config.json': {
        agents: ['claude-code'],
        scenarios: './scenarios',
        judge: base.judge,
        profiles: { own: { judge: { provider: 'agent', agent: 'codex' } } },
      },
      'scenarios/hello.json': hello,
    });
    const loaded = await loadConfig(undefined, { cwd: dir, profile: 'own' });
    expect(loaded.config.judge).toMatchObject({ provider: 'agent', max_retries: 3 });
    expect(loaded.config.judge?.model).toBeUndefined();
  });
});

describe('profiles: classify', () => {
  test("a profile's rules come before the base's, so a glob of the base does not shadow them", async () => {
    const dir = project({
      'axis.config.json': {
        agents: ['claude-code'],
        scenarios: './scenarios',
        classify: { 'acme_*': 'service', 'docs_*': 'agent' },
        profiles: { local: { classify: { acme_index: 'environment', 'docs_*': 'service' } } },
      },
      'scenarios/hello.json': hello,
    });
    const { classify } = (await loadConfig(undefined, { cwd: dir, profile: 'local' })).config;
    expect(Object.entries(classify)).toEqual([
      ['acme_index', 'environment'],
      ['docs_*', 'service'],
      ['acme_*', 'service'],
    ]);
    const category = (tool: string) => classifyTool(tool, {}, undefined, { rules: classify }).categories;
    expect(category('acme_index')).toEqual(['environment']);
    expect(category('acme_search')).toEqual(['service']);
    expect(category('docs_read')).toEqual(['service']);
  });
});

describe('profiles', () => {
  const files = {
    'axis.config.json': {
      agents: ['claude-code'],
      scenarios: './scenarios',
      settings: { runs: 1, concurrency: 8, scoring_weights: { goal_achievement: 0.4 } },
      profiles: {
        matrix: {
          agents: ['claude-code', { agent: 'codex', model: 'gpt-5' }],
          settings: { runs: 3 },
          skills: ['./skills/x'],
        },
        smoke: { scenarios: './smoke', artifacts: ['out/**'] },
      },
    },
    'scenarios/a.json': hello,
    'scenarios/b.json': hello,
    'smoke/quick.json': hello,
  };

  test('a profile overlays the config; baseConfig stays as written', async () => {
    const dir = project(files);
    const loaded = await loadConfig(undefined, { cwd: dir, profile: 'matrix' });
    expect(loaded.profile).toBe('matrix');
    expect(loaded.config.agents.map((a) => a.name)).toEqual(['claude-code', 'codex|gpt-5']);
    expect(loaded.config.settings.runs).toBe(3);
    expect(loaded.config.settings.concurrency).toBe(8); // deep-merged, not replaced
    expect(loaded.config.skills).toEqual(['./skills/x']);
    expect(loaded.config.profiles).toEqual(['matrix', 'smoke']);
    expect(loaded.baseConfig.agents).toEqual(['claude-code']);
    expect(loaded.baseConfig.settings?.runs).toBe(1);
    expect(planJobs(loaded).jobs).toHaveLength(2 * 2 * 3);
  });

  test('a profile can point at other scenarios', async () => {
    const dir = project(files);
    const smoke = await loadConfig(undefined, { cwd: dir, profile: 'smoke' });
    expect(smoke.scenarios.map((s) => s.key)).toEqual(['quick']);
    expect(smoke.config.artifacts).toEqual(['out/**']);
    const none = await loadConfig(undefined, { cwd: dir });
    expect(none.scenarios.map((s) => s.key)).toEqual(['a', 'b']);
  });

  test('an unknown profile fails listing the known ones', async () => {
    const dir = project(files);
    expect(await issuesOf(dir, { profile: 'nightly' })).toEqual([
      {
        file: 'axis.config.json',
        path: 'profiles',
        message: 'no profile named "nightly" (known profiles: matrix, smoke)',
      },
    ]);
  });

  test('a config without profiles says so', async () => {
    const dir = project({ 'axis.config.json': { agents: ['codex'] }, 'scenarios/a.json': hello });
    expect(await issuesOf(dir, { profile: 'ci' })).toEqual([
      {
        file: 'axis.config.json',
        path: 'profiles',
        message: 'no profile named "ci": the config declares no profiles',
      },
    ]);
  });
});

test('every profile is checked merged, even when another one (or none) is selected', async () => {
  const dir = project({
    'axis.config.json': {
      agents: ['claude-code'],
      profiles: { good: { settings: { runs: 3 } }, typo: { agents: ['codx'] } },
    },
    'scenarios/a.json': hello,
  });
  const expected = [
    {
      file: 'axis.config.json',
      path: 'profiles.typo.agents[0]',
      message:
        'unknown agent "codx"; did you mean "codex"? Built-in agents: claude-code, codex, gemini, qwen-code, opencode, acp, command; add custom ones under "adapters". Any ACP agent runs as { "agent": "acp", "command": "<executable>" }; `axis agents` lists the presets',
    },
  ];
  expect(await issuesOf(dir)).toEqual(expected);
  expect(await issuesOf(dir, { profile: 'good' })).toEqual(expected);
});

test("a scenario's agents may name an agent of the base config or of any profile, whichever is selected", async () => {
  // `axis validate` passed, then `axis run --profile` failed: the known names were the selected config's only.
  const own = (name: string) => ({ agent: 'command', name, command: 'true' });
  const dir = project({
    'axis.config.json': {
      agents: [own('local')],
      scenarios: './scenarios',
      profiles: { ci: { agents: [own('ci-bot')] } },
    },
    'scenarios/a.json': { ...hello, agents: ['local'] },
    'scenarios/b.json': { ...hello, agents: ['ci-bot'] },
    'scenarios/c.json': { ...hello, agents: ['lcoal'] },
  });
  const typo = (known: string) => [
    {
      file: 'scenarios/c.json',
      path: 'agents[0]',
      message: `unknown agent "lcoal"; did you mean "local"? (known: ${known})`,
    },
  ];
  const known = 'claude-code, codex, gemini, qwen-code, opencode, acp, command, local, ci-bot';
  expect(await issuesOf(dir)).toEqual(typo(known));
  expect(await issuesOf(dir, { profile: 'ci' })).toEqual(typo(known));
});
