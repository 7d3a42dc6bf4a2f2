import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeCodeAdapter } from '../../../src/adapters/claude-code.js';
import { preloadTapes, startJobSimulator } from '../../../src/runner/simulate.js';
import type { Tape } from '../../../src/sim/index.js';
import { ConfigError } from '../../../src/util/errors.js';

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
