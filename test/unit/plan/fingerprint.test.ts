import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { configFingerprint, planJobs } from '../../../src/plan/index.js';
import { hello, project } from '../config/helpers.js';

const base = {
  agents: [{ agent: 'command', name: 'toy', command: './agent.sh', env: { TOKEN: 'one' } }],
  settings: { runs: 3, concurrency: 4, simulate: false },
};

async function hashOf(config: Record<string, unknown>, scenario: Record<string, unknown> = hello) {
  const dir = project({
    'axis.config.json': config,
    'agent.sh': '#!/bin/sh\necho hi\n',
    'scenarios/hello.json': scenario,
    'scenarios/cms/post.json': hello,
  });
  const loaded = await loadConfig(undefined, { cwd: dir });
  return configFingerprint(loaded, planJobs(loaded));
}

describe('configFingerprint', () => {
  test('the same suite in another checkout directory has the same hash', async () => {
    const a = await hashOf(base);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashOf(base)).toBe(a);
  });

  test('machine-dependent settings and secret values do not change it', async () => {
    const a = await hashOf(base);
    expect(await hashOf({ ...base, settings: { ...base.settings, concurrency: 1 } })).toBe(a);
    expect(await hashOf({ ...base, agents: [{ ...base.agents[0], env: { TOKEN: 'two' } }] })).toBe(a);
  });

  test('what decides the jobs, how they run and how they are scored changes it', async () => {
    const a = await hashOf(base);
    expect(await hashOf({ ...base, settings: { ...base.settings, runs: 5 } })).not.toBe(a);
    expect(await hashOf(base, { ...hello, prompt: 'Say hi' })).not.toBe(a);
    expect(await hashOf(base, { ...hello, judge: [{ check: 'Agent said hi' }] })).not.toBe(a);
    expect(await hashOf({ ...base, agents: [{ ...base.agents[0], args: ['--fast'] }] })).not.toBe(a);
    expect(
      await hashOf({ ...base, agents: [{ ...base.agents[0], env: { TOKEN: 'one', OTHER: 'x' } }] }),
    ).not.toBe(a);
  });
});
