import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { configSchema } from '../../../src/config/schema.js';
import { parseTape } from '../../../src/sim/tape.js';
import { project } from './helpers.js';

// Zod 4 compiles a parser with `new Function` at a schema's first parse unless told not to; AXIS
// parses each config and scenario file once, where compiling cost more than it saved
// (src/config/schema-helpers.ts, PARSE_FILE). Counted by a Function that notes every construction.
const realFunction = globalThis.Function;
let built = 0;

function countFunctions(): void {
  built = 0;
  globalThis.Function = new Proxy(realFunction, {
    construct(target, args) {
      built++;
      return Reflect.construct(target, args);
    },
  });
}

afterEach(() => {
  globalThis.Function = realFunction;
});

const files = {
  'axis.config.json': {
    scenarios: './scenarios',
    agents: [
      'claude-code',
      { agent: 'codex', name: 'codex-high', model: 'gpt-5', flags: { c: 'model_reasoning_effort=high' } },
    ],
    settings: { concurrency: 4, runs: 3, limits: { scenario: { time_minutes: 5 } } },
    profiles: { ci: { settings: { runs: 5 } } },
  },
  'scenarios/one.json': {
    name: 'One',
    prompt: 'Say hello.',
    judge: [{ check: 'It said hello', weight: 0.5 }],
    setup: [{ action: 'run_script', command: 'true' }],
    limits: { time_minutes: 2 },
  },
  'scenarios/two.json': { name: 'Two', prompt: 'Say bye.', judge: [{ check: 'It said bye' }] },
};

describe('config files are parsed without compiling parsers', () => {
  test('the control: a plain parse of the same config compiles some', () => {
    countFunctions();
    // A schema compiles its parser once per process: a fresh object schema of the same shape is.
    const fresh = configSchema.extend({});
    expect(fresh.safeParse(files['axis.config.json']).error?.issues).toBeUndefined();
    expect(built).toBeGreaterThan(0);
  });

  test('loadConfig with profiles and scenarios builds no function', async () => {
    const dir = project(files);
    countFunctions();
    const loaded = await loadConfig(undefined, { cwd: dir, profile: 'ci' });
    globalThis.Function = realFunction;
    expect(loaded.scenarios.map((s) => s.key).sort()).toEqual(['one', 'two']);
    expect(loaded.config.settings.runs).toBe(5);
    expect(built).toBe(0);
  });

  test('a tape (loaded once per run under the simulator) builds no function either', () => {
    countFunctions();
    const tape = parseTape(
      {
        turns: [
          { text: 'Looking.', tools: [{ shell: 'ls' }, { write_file: { path: 'a.txt', content: 'x' } }] },
          { fault: { status: 429, times: 1 } },
          { text: 'Done.', next: [{ if: { exit_nonzero: true }, goto: 0 }] },
        ],
        judge: [{ match: 'ids 1-3', answer: { audits: [{ id: 1, success: 1 }] } }, { answer: { score: 9 } }],
      },
      'tape.json',
    );
    globalThis.Function = realFunction;
    expect(tape.turns).toHaveLength(3);
    expect(built).toBe(0);
  });
});
