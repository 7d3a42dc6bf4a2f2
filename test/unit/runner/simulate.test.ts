import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeCodeAdapter } from '../../../src/adapters/claude-code.js';
import { loadConfig } from '../../../src/config/index.js';
import { planJobs } from '../../../src/plan/index.js';
import { loadPlannedTapes, preloadTapes, startJobSimulator } from '../../../src/runner/simulate.js';
import type { Tape } from '../../../src/sim/index.js';
import { ConfigError } from '../../../src/util/errors.js';
import { hello, project } from '../config/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-simulate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ask(url: string): Promise<unknown> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      stream: false,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'Bash', description: 'run', input_schema: { type: 'object', properties: {} } }],
    }),
  });
  return res.json();
}

describe('job simulators', () => {
  it('serve a preloaded tape: loaded and checked once, then used by every job as it is', async () => {
    const path = join(dir, 'tape.json');
    writeFileSync(path, JSON.stringify({ turns: [{ text: 'From the file.' }] }));
    const tapes = await preloadTapes([path, path]);
    expect([...tapes.keys()]).toEqual([path]);
    const job = await startJobSimulator(path, claudeCodeAdapter, tapes.get(path));
    try {
      expect(job.env.ANTHROPIC_BASE_URL).toBe(job.sim.url);
      expect(await ask(job.sim.url)).toMatchObject({ content: [{ type: 'text', text: 'From the file.' }] });
      expect(job.record(dir)).toMatchObject({ requests: 1, tape: 'tape.json' });
    } finally {
      await job.close();
    }
  });

  it('do not check a preloaded tape again per job (the tape schema would refuse this one)', async () => {
    // preloadTapes has checked what it returns; a second check per job cost about 3 ms on a 400 KB tape.
    const unchecked = { turns: [{ text: 'As preloaded.', note: 'not a tape field' }] } as unknown as Tape;
    const job = await startJobSimulator(join(dir, 'absent.json'), claudeCodeAdapter, unchecked);
    try {
      expect(await ask(job.sim.url)).toMatchObject({ content: [{ type: 'text', text: 'As preloaded.' }] });
    } finally {
      await job.close();
    }
  });

  it('read and check the tape file when none was preloaded', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ turns: [{ text: 'x', note: 1 }] }));
    await expect(startJobSimulator(path, claudeCodeAdapter)).rejects.toBeInstanceOf(ConfigError);
    await expect(preloadTapes([path])).rejects.toThrow(/bad\.json/);
  });
});

describe('the tapes of the planned scenarios', () => {
  const load = async (files: Record<string, unknown>, filters: { scenarios?: string } = {}) => {
    const root = project(files);
    const loaded = await loadConfig(undefined, { cwd: root });
    return { root, plan: planJobs(loaded, filters) };
  };
  const issuesOf = (err: unknown) => (err as ConfigError).issues.map((i) => [i.file, i.path, i.message]);

  it('a config whose unselected scenarios have no tape loads, and the selected ones load theirs', async () => {
    const { root, plan } = await load(
      {
        'axis.config.json': { agents: ['codex'], settings: { simulate: true } },
        'scenarios/a.json': hello,
        'scenarios/b.json': hello,
        'tapes/a.json': { turns: [{ text: 'hi' }] },
      },
      { scenarios: 'a' },
    );
    const tapes = await loadPlannedTapes(plan.scenarios);
    expect([...tapes.keys()]).toEqual([join(root, 'tapes/a.json')]);
  });

  it('a selected scenario without its tape: file, field and the expected path (exit 2); once per variant set', async () => {
    const { root, plan } = await load({
      'axis.config.json': {
        agents: ['codex'],
        settings: { simulate: true },
        scenarios: ['./scenarios', { key: 'inline/hi', ...hello }],
      },
      'scenarios/hello.json': hello,
      'scenarios/v.json': { ...hello, tape: './gone.json', variants: [{ name: 'x' }, { name: 'y' }] },
      'scenarios/off.json': { ...hello, skip: true },
    });
    const err = await loadPlannedTapes(plan.scenarios).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(2);
    const expected = (key: string) =>
      `simulate is on but there is no tape for "${key}": expected ${root}/tapes/${key}.json (write one: docs/simulator.md#tapes; record one: axis sim record; or set "tape")`;
    expect(issuesOf(err)).toEqual([
      ['scenarios/hello.json', '', expected('hello')],
      ['axis.config.json', 'scenarios[1]', expected('inline/hi')],
      [
        'scenarios/v.json',
        'tape',
        `simulate is on but the tape file does not exist: ${root}/scenarios/gone.json`,
      ],
    ]);
  });
});
