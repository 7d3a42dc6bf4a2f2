import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { planJobs } from '../../../src/plan/index.js';
import { project } from './helpers.js';

test('variants expand to key@name, inherit from the base, and the base does not run', async () => {
  const dir = project({
    'axis.config.json': {
      agents: ['claude-code', 'codex'],
      settings: { limits: { scenario: { time_minutes: 20 } } },
    },
    'scenarios/docs/search.json': {
      name: 'Search the docs',
      prompt: 'Find the page about deploys.',
      judge: [{ check: 'Found the deploy page', weight: 0.6 }, { check: 'Quoted it' }],
      mcp_servers: {
        docs: { type: 'stdio', command: 'docs-mcp' },
        web: { type: 'http', url: 'https://web' },
      },
      skills: ['./skills/base'],
      limits: { tokens: 1000 },
      variants: [
        { name: 'baseline' },
        {
          name: 'with-skills',
          skills: ['./skills/docs'],
          mcp_servers: { web: { type: 'http', url: 'https://web2' } },
          agents: ['codex'],
        },
        {
          name: 'no_context',
          prompt: 'Find it without help.',
          checks: [{ result_matches: 'deploy' }],
          limits: { time_minutes: 5 },
        },
      ],
    },
  });
  const loaded = await loadConfig(undefined, { cwd: dir });
  const byKey = Object.fromEntries(loaded.scenarios.map((s) => [s.key, s]));
  expect(Object.keys(byKey)).toEqual([
    'docs/search@baseline',
    'docs/search@no_context',
    'docs/search@with-skills',
  ]);
  const baseline = byKey['docs/search@baseline']!;
  expect(baseline).toMatchObject({
    baseKey: 'docs/search',
    variant: 'baseline',
    name: 'Search the docs [baseline]',
    prompt: 'Find the page about deploys.',
    skills: ['./skills/base'],
    limits: { time_minutes: 20, tokens: 1000 },
  });
  expect(baseline.criteria.map((c) => c.weight)).toEqual([0.6, 0.4]);

  const skills = byKey['docs/search@with-skills']!;
  expect(skills.skills).toEqual(['./skills/docs']); // replaced
  expect(skills.mcp_servers).toEqual({
    docs: { type: 'stdio', command: 'docs-mcp' },
    web: { type: 'http', url: 'https://web2' },
  }); // shallow-merged, variant wins
  expect(skills.agents).toEqual(['codex']);

  const noContext = byKey['docs/search@no_context']!;
  expect(noContext.prompt).toBe('Find it without help.');
  expect(noContext.limits).toEqual({ time_minutes: 5, tokens: 1000 }); // merged field by field over the parent's
  // The variant keeps the parent's judge checks and adds its own deterministic check.
  expect(noContext.criteria.map((c) => [c.kind, Math.round(c.weight * 1000) / 1000])).toEqual([
    ['judge', 0.6],
    ['judge', 0.2],
    ['check', 0.2],
  ]);

  const plan = planJobs(loaded, { scenarios: 'docs/search' });
  expect(plan.jobs.map((j) => `${j.scenario.key} ${j.agent.name}`)).toEqual([
    'docs/search@baseline claude-code',
    'docs/search@baseline codex',
    'docs/search@no_context claude-code',
    'docs/search@no_context codex',
    'docs/search@with-skills codex',
  ]);
});

test("each field a variant sets replaces the scenario's, but limits, thresholds and mcp_servers merge and network's ports add up", async () => {
  const dir = project({
    'axis.config.json': { agents: ['claude-code', 'codex'] },
    'skills/a/SKILL.md': '---\nname: a\ndescription: a\n---\n',
    'skills/b/SKILL.md': '---\nname: b\ndescription: b\n---\n',
    'scenarios/s.json': {
      name: 'S',
      prompt: 'parent prompt',
      judge: 'parent judge',
      checks: [{ result_matches: 'parent' }],
      skip: true,
      setup: [{ action: 'run_script', command: 'parent setup' }],
      teardown: [{ action: 'run_script', command: 'parent teardown' }],
      agents: ['claude-code'],
      skills: ['../skills/a'],
      artifacts: ['parent/*'],
      tape: 'parent.json',
      limits: { time_minutes: 5, tokens: 1000 },
      thresholds: { axis_score: 50, agent: 40 },
      mcp_servers: { p: { type: 'stdio', command: 'p' }, both: { type: 'stdio', command: 'parent' } },
      network: { mode: 'loopback', ports: [7001, 7002] },
      variants: [
        { name: 'inherits' },
        {
          name: 'sets',
          prompt: 'variant prompt',
          judge: 'variant judge',
          checks: [{ result_matches: 'variant' }],
          skip: false,
          setup: [{ action: 'run_script', command: 'variant setup' }],
          teardown: [{ action: 'run_script', command: 'variant teardown' }],
          agents: ['codex'],
          skills: ['../skills/b'],
          artifacts: ['variant/*'],
          tape: 'variant.json',
          limits: { tokens: 2000 },
          thresholds: { agent: 45 },
          mcp_servers: { v: { type: 'stdio', command: 'v' }, both: { type: 'stdio', command: 'variant' } },
          network: { mode: 'loopback', ports: [7002, 7003] },
        },
        { name: 'mode-only', network: 'host' },
      ],
    },
  });
  const loaded = await loadConfig(undefined, { cwd: dir });
  const [inherits, modeOnly, sets] = loaded.scenarios; // by key
  expect(inherits).toMatchObject({
    key: 's@inherits',
    prompt: 'parent prompt',
    skip: true,
    setup: [{ command: 'parent setup' }],
    teardown: [{ command: 'parent teardown' }],
    agents: ['claude-code'],
    skills: ['../skills/a'],
    artifacts: ['parent/*'],
    tape: join(dir, 'scenarios/parent.json'),
    limits: { time_minutes: 5, tokens: 1000 },
    thresholds: { axis_score: 50, agent: 40 },
    network: { mode: 'loopback', ports: [7001, 7002] },
  });
  expect(inherits!.criteria.map((c) => c.label)).toEqual(['parent judge', 'final answer matches parent']);
  expect(sets).toMatchObject({
    key: 's@sets',
    prompt: 'variant prompt',
    skip: false,
    setup: [{ command: 'variant setup' }],
    teardown: [{ command: 'variant teardown' }],
    agents: ['codex'],
    skills: ['../skills/b'],
    artifacts: ['variant/*'],
    tape: join(dir, 'scenarios/variant.json'),
    limits: { time_minutes: 5, tokens: 2000 },
    thresholds: { axis_score: 50, agent: 45 },
    mcp_servers: {
      p: { type: 'stdio', command: 'p' },
      both: { type: 'stdio', command: 'variant' },
      v: { type: 'stdio', command: 'v' },
    },
    network: { mode: 'loopback', ports: [7001, 7002, 7003] }, // the ports of both
  });
  expect(sets!.criteria.map((c) => c.label)).toEqual(['variant judge', 'final answer matches variant']);
  // The variant's mode; the scenario's ports wait, as the settings' do, for a loopback mode.
  expect(modeOnly!.network).toEqual({ mode: 'host', ports: [7001, 7002] });
});
