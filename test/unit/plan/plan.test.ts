import { beforeAll, describe, expect, test } from 'vitest';
import { loadConfig, type LoadedConfig } from '../../../src/config/index.js';
import { matchesName, planJobs, splitList } from '../../../src/plan/index.js';
import { AxisError } from '../../../src/util/errors.js';
import { hello, project } from '../config/helpers.js';

let loaded: LoadedConfig;

beforeAll(async () => {
  const dir = project({
    'axis.config.json': {
      agents: [
        'claude-code',
        { agent: 'claude-code', model: 'opus' },
        { agent: 'codex', scenarios: ['cms/*', 'hello-world'] },
      ],
      settings: { runs: 3 },
    },
    'scenarios/hello-world.json': hello,
    'scenarios/hello-there.json': { ...hello, agents: ['claude-code|opus'] },
    'scenarios/cms/create-post.json': hello,
    'scenarios/cms/delete-post.json': { ...hello, skip: true },
    'scenarios/docs/search.json': { ...hello, variants: [{ name: 'a' }, { name: 'b' }] },
  });
  loaded = await loadConfig(undefined, { cwd: dir });
});

const pairs = (filters = {}) => {
  const seen: string[] = [];
  for (const j of planJobs(loaded, filters).jobs) {
    const id = `${j.scenario.key} ${j.agent.name}`;
    if (!seen.includes(id)) seen.push(id);
  }
  return seen;
};

describe('planJobs', () => {
  test('scenarios by key × agents in config order × runs, with every filter applied', () => {
    const plan = planJobs(loaded);
    expect(plan.runs).toBe(3);
    expect(plan.jobs.slice(0, 4).map((j) => [j.index, j.scenario.key, j.agent.name, j.run, j.runs])).toEqual([
      [0, 'cms/create-post', 'claude-code', 1, 3],
      [1, 'cms/create-post', 'claude-code', 2, 3],
      [2, 'cms/create-post', 'claude-code', 3, 3],
      [3, 'cms/create-post', 'claude-code|opus', 1, 3],
    ]);
    expect(pairs()).toEqual([
      'cms/create-post claude-code',
      'cms/create-post claude-code|opus',
      'cms/create-post codex', // codex's own filter: cms/* and hello-world
      'docs/search@a claude-code',
      'docs/search@a claude-code|opus',
      'docs/search@b claude-code',
      'docs/search@b claude-code|opus',
      'hello-there claude-code|opus', // the scenario's agents filter
      'hello-world claude-code',
      'hello-world claude-code|opus',
      'hello-world codex',
    ]);
    expect(plan.jobs).toHaveLength(11 * 3);
    expect(plan.skipped.map((s) => s.key)).toEqual(['cms/delete-post']);
    expect(plan.scenarios.map((s) => s.key)).toEqual([
      'cms/create-post',
      'docs/search@a',
      'docs/search@b',
      'hello-there',
      'hello-world',
    ]);
  });

  test('scenario filters: exact keys, globs, base keys of variants, comma lists', () => {
    expect(pairs({ scenarios: 'hello-*', agents: 'codex' })).toEqual(['hello-world codex']);
    expect(pairs({ scenarios: ['docs/search'], agents: 'claude-code|opus' })).toEqual([
      'docs/search@a claude-code|opus',
      'docs/search@b claude-code|opus',
    ]);
    expect(pairs({ scenarios: 'docs/search@b, cms/*', agents: 'CLAUDE-CODE' })).toEqual([
      'cms/create-post claude-code',
      'cms/create-post claude-code|opus',
      'docs/search@b claude-code',
      'docs/search@b claude-code|opus',
    ]);
  });

  test('agent filters: full names, base adapter names and globs', () => {
    expect(pairs({ scenarios: 'hello-world', agents: 'claude-code|*' })).toEqual([
      'hello-world claude-code|opus',
    ]);
    expect(pairs({ scenarios: 'hello-world', agents: 'claude-code' })).toEqual([
      'hello-world claude-code',
      'hello-world claude-code|opus',
    ]);
    expect(pairs({ scenarios: 'hello-world', agents: 'co*' })).toEqual(['hello-world codex']);
  });

  test('a filter naming a skipped scenario plans nothing but reports it skipped', () => {
    const plan = planJobs(loaded, { scenarios: 'cms/delete-post' });
    expect(plan.jobs).toEqual([]);
    expect(plan.skipped.map((s) => s.key)).toEqual(['cms/delete-post']);
  });

  test('a filter that matches nothing lists what is available', () => {
    const scenarioErr = (() => {
      try {
        planJobs(loaded, { scenarios: 'cms/*,helo' });
      } catch (err) {
        return err as AxisError;
      }
    })();
    expect(scenarioErr).toBeInstanceOf(AxisError);
    expect(scenarioErr?.exitCode).toBe(2);
    expect(scenarioErr?.message).toBe(
      'No scenario matches "helo". Available scenarios: cms/create-post, cms/delete-post, docs/search@a, docs/search@b, hello-there, hello-world',
    );
    expect(() => planJobs(loaded, { agents: 'gemini' })).toThrow(
      'No agent matches "gemini". Configured agents: claude-code, claude-code|opus, codex',
    );
  });
});

describe('filter helpers', () => {
  test('splitList', () => {
    expect(splitList('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(splitList(['a,b', ' c '])).toEqual(['a', 'b', 'c']);
    expect(splitList(undefined)).toEqual([]);
  });
  test('matchesName: * matches across slashes, globs on full and base names', () => {
    expect(matchesName('*', 'cms/create-post', 'cms/create-post')).toBe(true);
    expect(matchesName('cms/*', 'cms/create-post@v1', 'cms/create-post')).toBe(true);
    expect(matchesName('cms/create-post', 'cms/create-post@v1', 'cms/create-post')).toBe(true);
    expect(matchesName('cms', 'cms/create-post', 'cms/create-post')).toBe(false);
  });
});
