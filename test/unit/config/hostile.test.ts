/**
 * Hostile-shaped configs and scenarios: wrong types at every level, huge and non-finite numbers, prototype
 * keys, non-object exports, exports that reject or throw. Each must be a problem naming the file, the field
 * and what was expected, never a crash (the loader would throw something other than ConfigError).
 */
import { describe, expect, test } from 'vitest';
import { hello, issuesOf, project } from './helpers.js';

interface Case {
  name: string;
  files: Record<string, unknown>;
  /** Some issue must have this file and path, and a message matching `message`. */
  file: string;
  path: string;
  message: RegExp;
}

const base = { agents: ['claude-code'] };
const EXPECTED = /^(expected|missing; expected|unknown key)/;

/** A config with `extra` merged in at the top level, and the hello scenario. */
const config = (extra: Record<string, unknown>) => ({
  'axis.config.json': { ...base, ...extra },
  'scenarios/hello.json': hello,
});
/** A scenario with `extra` merged over hello. */
const scenario = (extra: Record<string, unknown>) => ({
  'axis.config.json': base,
  'scenarios/s.json': { ...hello, ...extra },
});
/** A JS config module (for values JSON cannot hold). */
const mjs = (body: string) => ({ 'axis.config.mjs': body, 'scenarios/hello.json': hello });

const cases: Case[] = [];
const add = (name: string, files: Record<string, unknown>, file: string, path: string, message = EXPECTED) =>
  cases.push({ name, files, file, path, message });

// --- wrong types at the top level of the config
for (const [key, value] of [
  ['name', 1],
  ['scenarios', 5],
  ['agents', {}],
  ['agents', 'claude-code'],
  ['settings', []],
  ['env', 'A=1'],
  ['judge', 7],
  ['mcp_servers', []],
  ['skills', 3],
  ['artifacts', 5],
  ['profiles', []],
  ['adapters', 1],
  ['beforeAll', {}],
  ['afterAll', 'echo'],
] as const)
  add(`config ${key}: ${JSON.stringify(value)}`, config({ [key]: value }), 'axis.config.json', key);

// --- wrong types one and two levels down
for (const [path, settings] of [
  ['settings.concurrency', { concurrency: 'a' }],
  ['settings.runs', { runs: 'x' }],
  ['settings.limits', { limits: 1 }],
  ['settings.limits.run', { limits: { run: [] } }],
  ['settings.limits.scenario.tokens', { limits: { scenario: { tokens: -1 } } }],
  ['settings.thresholds.axis_score', { thresholds: { axis_score: 101 } }],
  ['settings.thresholds', { thresholds: 'x' }],
  ['settings.simulate', { simulate: 3 }],
  ['settings.remotes.maxDepth', { remotes: { maxDepth: 0 } }],
  ['settings.scoring_weights', { scoring_weights: 'x' }],
] as const)
  add(`${path}: wrong type`, config({ settings }), 'axis.config.json', path);
add('agents[0]: a number', config({ agents: [42] }), 'axis.config.json', 'agents[0]');
add(
  'agents[0].flags: an array',
  config({ agents: [{ agent: 'claude-code', flags: [] }] }),
  'axis.config.json',
  'agents[0].flags',
);
add('judge.provider: a number', config({ judge: { provider: 1 } }), 'axis.config.json', 'judge.provider');

// --- huge numbers (1e400 parses to Infinity)
for (const [path, text] of [
  ['settings.concurrency', '{"agents":["claude-code"],"settings":{"concurrency":1e400}}'],
  [
    'settings.limits.scenario.tokens',
    '{"agents":["claude-code"],"settings":{"limits":{"scenario":{"tokens":1e400}}}}',
  ],
  [
    'settings.limits.scenario.time_minutes',
    '{"agents":["claude-code"],"settings":{"limits":{"scenario":{"time_minutes":1e308}}}}',
  ],
  ['settings.runs', '{"agents":["claude-code"],"settings":{"runs":1e20}}'],
  ['judge.max_retries', '{"agents":["claude-code"],"judge":{"provider":"anthropic","max_retries":1e12}}'],
] as const)
  add(`${path}: huge`, { 'axis.config.json': text, 'scenarios/hello.json': hello }, 'axis.config.json', path);

// --- NaN and Infinity, which only a JS config can hold
for (const [path, settings] of [
  ['settings.concurrency', '{ concurrency: NaN }'],
  ['settings.runs', '{ runs: Infinity }'],
  ['settings.limits.scenario.time_minutes', '{ limits: { scenario: { time_minutes: -Infinity } } }'],
  ['settings.thresholds.axis_score', '{ thresholds: { axis_score: NaN } }'],
  ['settings.scoring_weights.agent', '{ scoring_weights: { agent: NaN } }'],
] as const)
  add(
    `${path}: non-finite`,
    mjs(`export default { agents: ['claude-code'], settings: ${settings} };`),
    'axis.config.mjs',
    path,
  );
add(
  'judge.timeout_seconds: Infinity',
  mjs(
    "export default { agents: ['claude-code'], judge: { provider: 'anthropic', timeout_seconds: Infinity } };",
  ),
  'axis.config.mjs',
  'judge.timeout_seconds',
);

// --- prototype keys stay ordinary (unknown) keys
add(
  'top-level __proto__',
  { 'axis.config.json': '{"agents":["claude-code"],"__proto__":{"x":1}}', 'scenarios/hello.json': hello },
  'axis.config.json',
  '__proto__',
);
add(
  'settings.__proto__',
  {
    'axis.config.json': '{"agents":["claude-code"],"settings":{"__proto__":{"runs":3}}}',
    'scenarios/hello.json': hello,
  },
  'axis.config.json',
  'settings.__proto__',
);
add(
  'constructor key',
  config({ constructor: { prototype: { polluted: true } } }),
  'axis.config.json',
  'constructor',
);
add(
  'judge.constructor',
  config({ judge: { provider: 'anthropic', constructor: 1 } }),
  'axis.config.json',
  'judge.constructor',
);
add(
  'a scenario with __proto__',
  {
    'axis.config.json': base,
    'scenarios/s.json': '{"name":"x","prompt":"p","judge":"ok","__proto__":{"skip":true}}',
  },
  'scenarios/s.json',
  '__proto__',
);

// --- exports that are not an object, or reject, or throw
for (const [name, body] of [
  ['a number', 'export default 42;'],
  ['a string', 'export default "axis";'],
  ['null', 'export default null;'],
  ['an array', 'export default [];'],
  ['true', 'export default true;'],
  ['a function returning a number', 'export default () => 5;'],
] as const)
  add(`default export ${name}`, mjs(body), 'axis.config.mjs', '', /^expected a config object, found/);
add(
  'cjs module.exports = 3',
  { 'axis.config.cjs': 'module.exports = 3;', 'scenarios/hello.json': hello },
  'axis.config.cjs',
  '',
  /^expected a config object, found 3$/,
);
add(
  'a promise that rejects',
  mjs('export default Promise.reject(new Error("no"));'),
  'axis.config.mjs',
  '',
  /^the default export is a promise that rejected: no$/,
);
add(
  'an async function that rejects',
  mjs('export default async () => { throw new Error("late"); };'),
  'axis.config.mjs',
  '',
  /^the default-exported function threw: late$/,
);
add(
  'a function that throws a non-Error',
  mjs('export default () => { throw { toString() { throw 1; } }; };'),
  'axis.config.mjs',
  '',
  /^the default-exported function threw: /,
);
add(
  'a module that throws on import',
  mjs('throw new Error("at import");'),
  'axis.config.mjs',
  '',
  /^could not load the module: at import$/,
);
add(
  'a getter deep inside',
  mjs(
    'export default { agents: ["claude-code"], settings: { limits: { get run() { throw new Error("deep"); } } } };',
  ),
  'axis.config.mjs',
  'settings.limits.run',
  /^reading the value threw: deep$/,
);
add(
  'a scenario exporting a rejected promise',
  { 'axis.config.json': base, 'scenarios/s.mjs': 'export default Promise.reject(new Error("nope"));' },
  'scenarios/s.mjs',
  '',
  /^the default export is a promise that rejected: nope$/,
);

// --- wrong types in a scenario
for (const [key, value] of [
  ['name', 1],
  ['prompt', 5],
  ['judge', 3],
  ['checks', 'x'],
  ['checks', [5]],
  ['skip', 'yes'],
  ['setup', 'npm ci'],
  ['agents', 'codex'],
  ['limits', 'x'],
  ['artifacts', 5],
  ['tape', 3],
  ['variants', {}],
  ['mcp_servers', 'x'],
  ['skills', 'x'],
] as const)
  add(
    `scenario ${key}: ${JSON.stringify(value)}`,
    scenario({ [key]: value }),
    'scenarios/s.json',
    key === 'checks' && Array.isArray(value) ? 'checks[0]' : key,
  );

describe('hostile-shaped configs and scenarios', () => {
  test('the table has 50+ cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  test.each(cases)('$name', async (c) => {
    const issues = await issuesOf(project(c.files));
    const hit = issues.find((i) => i.file === c.file && i.path === c.path && c.message.test(i.message));
    expect(hit, JSON.stringify(issues, null, 2)).toBeDefined();
  });
});
