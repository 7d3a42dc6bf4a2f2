/** What a new user without an API key is told after `axis init`: how to run the scaffold offline. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

const dirs: string[] = [];
beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** No key and an empty home: no local login either. */
const noKeys = (home: string) => ({
  HOME: home,
  ANTHROPIC_API_KEY: undefined,
  ANTHROPIC_AUTH_TOKEN: undefined,
  CLAUDE_CODE_OAUTH_TOKEN: undefined,
});

describe('axis init, then a run without a key', () => {
  it('run names the offline way (simulate and a tape), and validate then says where the tape goes', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-init-offline-')));
    dirs.push(dir);
    const home = join(dir, 'home');
    mkdirSync(home);
    expect((await axis(['init', '--no-skills'], dir)).code).toBe(0);

    const run = await axis(['run'], dir, noKeys(home));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('1 agent has no credentials:\n  claude-code: none of ANTHROPIC_API_KEY');
    expect(run.stderr).toContain(
      '\nTo run offline instead, set "settings": { "simulate": true } in axis.config.json: the simulator then ' +
        "plays the model from each scenario's tape (tapes/<scenario key>.json; docs/simulator.md in axis-eval).\n",
    );

    const configPath = join(dir, 'axis.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(configPath, JSON.stringify({ ...config, settings: { simulate: true } }));
    const validate = await axis(['validate'], dir, noKeys(home));
    expect(validate.code).toBe(2);
    expect(validate.stderr).toContain(
      `scenarios/hello-world.json: simulate is on but there is no tape for "hello-world": expected ` +
        `${dir}/tapes/hello-world.json (write one: docs/simulator.md#tapes; record one: axis sim record; ` +
        'or set "tape")\n',
    );

    // A tape with the agent's turns only: the run completes, and its unscored reason says what is missing
    // (with no pair scored, the gate fails: unscored-gate.test.ts).
    mkdirSync(join(dir, 'tapes'));
    const turns = [
      { tools: [{ write_file: { path: 'hello.txt', content: 'Hello, World!\n' } }] },
      { text: 'hello.txt holds Hello, World!' },
    ];
    writeFileSync(join(dir, 'tapes/hello-world.json'), JSON.stringify({ turns }));
    const run2 = await axis(['run', '--json'], dir, noKeys(home));
    expect(run2.code, run2.stderr).toBe(1);
    const { results, verdict } = JSON.parse(run2.stdout) as {
      results: { status: string; score?: { reason?: string } }[];
      verdict: { unscored?: string };
    };
    expect(results[0]?.status).toBe('completed');
    expect(verdict.unscored).toContain('the tape has no judge answer');
    const reason = results[0]?.score?.reason;
    expect(reason).toContain(
      'goal judge failed: anthropic axis-simulated-judge (simulator): the tape has no judge answer for ' +
        'this request (add a "judge" entry: docs/simulator.md#judge-answers)',
    );
  }, 120_000);
});
