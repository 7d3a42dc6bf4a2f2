/**
 * Missing credentials (an agent's key, the judge's `api_key_env`) are listed with every other problem, in
 * the same pass of `axis validate` and `axis run`: they used to come alone on the run after the rest was
 * fixed (and validate never said them). Under settings.simulate no key is needed, so none is asked for.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs, writeIn } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
import { HELLO } from './helpers.js';

const T = 60_000;
const KEYS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_BASE_URL'];
const MORE = ['CODEX_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'JUDGE_KEY', 'CODEX_HOME'];

let dir = '';
let home = '';
/** No key anywhere and an empty home: no local login either. */
const noKeys = () => ({ HOME: home, ...Object.fromEntries([...KEYS, ...MORE].map((k) => [k, undefined])) });
const config = {
  agents: ['claude-code', 'codex'],
  skills: ['./skills/gone'],
  judge: { provider: 'anthropic', api_key_env: 'JUDGE_KEY' },
};

beforeAll(() => {
  buildDist();
  dir = makeProject({
    'axis.config.json': config,
    'scenarios/fine.json': HELLO,
    'broken/axis.config.json': { ...config, skills: [] },
    'broken/scenarios/bad.json': { ...HELLO, judge: [{ check: 'ok', weight: -1 }] },
    'broken/scenarios/fine.json': HELLO,
    'sim/axis.config.json': { ...config, skills: [], settings: { simulate: true } },
    'sim/scenarios/fine.json': HELLO,
    'sim/tapes/fine.json': { turns: [{ text: 'hi' }] },
    'agentjudge/axis.config.json': {
      agents: ['claude-code'],
      judge: { provider: 'agent', agent: { agent: 'gemini' } },
    },
    'agentjudge/scenarios/fine.json': HELLO,
    // A custom adapter that does not load, beside built-in agents without keys.
    'adapter/axis.config.json': {
      adapters: { broken: './broken.mjs', bare: './bare.mjs' },
      agents: ['claude-code', 'broken', 'codex', 'bare'],
    },
    'adapter/broken.mjs': 'export const name = ;\n',
    'adapter/bare.mjs': 'export const name = "bare";\n',
    'adapter/scenarios/fine.json': HELLO,
  });
  home = join(dir, 'home');
  mkdirSync(home);
});
afterAll(() => removeTempDirs());

const skill = () =>
  `  axis.config.json: skills[0]: expected a skill folder at ${dir}/skills/gone, found nothing there\n`;
const claude =
  '  axis.config.json: agents "claude-code": no credentials: none of ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ' +
  'CLAUDE_CODE_OAUTH_TOKEN is set and no local login was found; set ANTHROPIC_API_KEY (or ' +
  'CLAUDE_CODE_OAUTH_TOKEN from `claude setup-token`), or log in with `claude` on this machine\n';
const codex =
  '  axis.config.json: agents "codex": no credentials: none of CODEX_API_KEY, OPENAI_API_KEY is set and no ' +
  'local login was found; set OPENAI_API_KEY (or CODEX_API_KEY), or log in with `codex login` on this machine\n';
const judge = '  axis.config.json: judge.api_key_env: the variable JUDGE_KEY is not set\n';
const offline =
  'To run offline instead, set "settings": { "simulate": true } in axis.config.json: the simulator then ' +
  "plays the model from each scenario's tape (tapes/<scenario key>.json; docs/simulator.md in axis-eval).\n";

describe('missing credentials, with the other problems', () => {
  it(
    'axis run and axis validate list the keys with a missing skill folder, in one pass; exit 2',
    async () => {
      const expected = `Invalid configuration (4 problems):\n${skill()}${claude}${codex}${judge}${offline}`;
      for (const command of ['run', 'validate']) {
        const r = await axis([command], dir, noKeys());
        expect(r.code, command).toBe(2);
        expect(r.stderr, command).toBe(expected);
      }
      const json = await axis(['validate', '--json'], dir, noKeys());
      const doc = JSON.parse(json.stdout) as { issues: Array<{ file: string; path: string }> };
      expect(doc.issues.map((i) => `${i.file}:${i.path}`)).toEqual([
        'axis.config.json:skills[0]',
        'axis.config.json:agents "claude-code"',
        'axis.config.json:agents "codex"',
        'axis.config.json:judge.api_key_env',
      ]);
    },
    T,
  );

  it(
    'an invalid scenario file lists the keys too',
    async () => {
      const bad = '  scenarios/bad.json: judge[0].weight: expected a weight ≥ 0, found -1\n';
      const r = await axis(['run'], join(dir, 'broken'), noKeys());
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Invalid configuration (4 problems):\n${bad}${claude}${codex}${judge}${offline}`);
    },
    T,
  );

  it(
    'run --no-score beside an invalid scenario file: the judge key it needs not is not listed',
    async () => {
      const bad = '  scenarios/bad.json: judge[0].weight: expected a weight ≥ 0, found -1\n';
      const r = await axis(['run', '--no-score'], join(dir, 'broken'), noKeys());
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Invalid configuration (3 problems):\n${bad}${claude}${codex}${offline}`);
    },
    T,
  );

  it(
    "custom adapters that do not load: each listed with every other agent's missing keys, in one pass",
    async () => {
      for (const command of ['run', 'validate']) {
        const r = await axis([command, '--no-score'], join(dir, 'adapter'), noKeys());
        expect(r.code, command).toBe(2);
        expect(r.stderr, command).toBe(
          'Invalid configuration (4 problems):\n' +
            '  broken.mjs: adapters.broken: cannot load adapter module: ParseError: Unexpected token at line 1, column 21\n' +
            '  bare.mjs: adapters.bare: expected a default export or a named "adapter" export holding an ' +
            'AgentAdapter, found exports "name"\n' +
            `${claude}${codex}${offline}`,
        );
      }
    },
    T,
  );

  it(
    '--no-score needs no judge key; with every key set, or --no-credentials, validate passes',
    async () => {
      writeIn(dir, 'skills/gone/SKILL.md', '---\nname: gone\ndescription: a skill\n---\n');
      const r = await axis(['run', '--no-score'], dir, noKeys());
      expect(r.stderr).toBe(`Invalid configuration (2 problems):\n${claude}${codex}${offline}`);
      const nv = await axis(['validate', '--no-score'], dir, noKeys());
      expect(nv.stderr).toBe(r.stderr);
      const skipped = await axis(['validate', '--no-credentials'], dir, noKeys());
      expect(skipped.stderr).toBe('');
      expect(skipped.code).toBe(0);
      const keys = { ...noKeys(), ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', JUDGE_KEY: 'k' };
      const v = await axis(['validate'], dir, keys);
      expect(v.stderr).toBe('');
      expect(v.code).toBe(0);
    },
    T,
  );

  it(
    "a judge agent's missing key is listed too, before any agent runs for nothing",
    async () => {
      // Were the check to miss it, the agent would run: against a port nothing listens on, never the internet.
      const env = {
        ...noKeys(),
        ANTHROPIC_API_KEY: 'k',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
        GEMINI_API_KEY: undefined,
        GOOGLE_API_KEY: undefined,
      };
      const gemini =
        '  axis.config.json: judge.agent "gemini": no credentials: none of GEMINI_API_KEY, GOOGLE_API_KEY ' +
        'is set; set GEMINI_API_KEY (an API key from Google AI Studio)\n';
      for (const command of ['run', 'validate']) {
        const r = await axis([command], join(dir, 'agentjudge'), env);
        expect(r.code, command).toBe(2);
        expect(r.stderr, command).toBe(`Invalid configuration (1 problem):\n${gemini}`);
      }
      const unjudged = await axis(['validate', '--no-score'], join(dir, 'agentjudge'), env);
      expect(unjudged.stderr).toBe('');
      expect(unjudged.code).toBe(0);
    },
    T,
  );

  it(
    'under settings.simulate no key is asked for',
    async () => {
      const v = await axis(['validate'], join(dir, 'sim'), noKeys());
      expect(v.stderr).toBe('');
      expect(v.code).toBe(0);
    },
    T,
  );
});
