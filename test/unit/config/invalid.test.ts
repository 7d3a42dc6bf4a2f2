import { describe, expect, test } from 'vitest';
import { hello, issuesOf, project } from './helpers.js';

type Expected = [file: string, path: string, message: string];

interface Case {
  name: string;
  files: Record<string, unknown>;
  profile?: string;
  /** Every issue, in order; a function gets the project dir for messages that name absolute paths. */
  expected: Expected[] | ((dir: string) => Expected[]);
}

const config = (extra: Record<string, unknown> = {}) => ({ agents: ['claude-code'], ...extra });
const withHello = { 'scenarios/hello.json': hello };
const scenario = (body: Record<string, unknown>) => ({
  'axis.config.json': config(),
  'scenarios/s.json': body,
});
const RESERVED = (name: string) =>
  `AXIS sets ${name} for every job, so a value here would break the job's isolation or be ignored; remove it`;
const FIXED = (agent: string, flag: string, why: string) =>
  `AXIS passes ${flag} to ${agent} itself (${why}); remove it from flags`;
const SKILL_FORMS = 'expected a local path (./...), owner/repo, github:owner/repo or a git URL';
const MCP_NAME =
  'expected a server name of letters, digits, "_", "-" (agents build tool names from it: mcp__<server>__<tool>)';
const EVEN =
  'expected an odd number of runs, found 2: an even sample has no middle run, so the median falls between two runs and the headline belongs to none of them';

const cases: Case[] = [
  // --- settings
  {
    name: 'even runs are rejected with the reason',
    files: { 'axis.config.json': config({ settings: { runs: 2 } }), ...withHello },
    expected: [['axis.config.json', 'settings.runs', EVEN]],
  },
  {
    name: 'runs above 19',
    files: { 'axis.config.json': config({ settings: { runs: 21 } }), ...withHello },
    expected: [['axis.config.json', 'settings.runs', 'expected an odd integer from 1 to 19, found 21']],
  },
  {
    name: 'runs out of range and even: one problem, not two',
    files: { 'axis.config.json': config({ settings: { runs: 0 } }), ...withHello },
    expected: [['axis.config.json', 'settings.runs', 'expected an odd integer from 1 to 19, found 0']],
  },
  {
    name: 'runs 20: out of range, said once',
    files: { 'axis.config.json': config({ settings: { runs: 20 } }), ...withHello },
    expected: [['axis.config.json', 'settings.runs', 'expected an odd integer from 1 to 19, found 20']],
  },
  {
    name: 'negative concurrency',
    files: { 'axis.config.json': config({ settings: { concurrency: -3 } }), ...withHello },
    expected: [['axis.config.json', 'settings.concurrency', 'expected a positive integer, found -3']],
  },
  {
    name: 'concurrency as a string',
    files: { 'axis.config.json': config({ settings: { concurrency: '4' } }), ...withHello },
    expected: [['axis.config.json', 'settings.concurrency', 'expected a positive integer, found "4"']],
  },
  {
    name: 'partial scoring weights are merged with the defaults before the sum check',
    files: {
      'axis.config.json': config({ settings: { scoring_weights: { goal_achievement: 0.6 } } }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'settings.scoring_weights',
        'expected the weights to sum to 1 (± 0.01), found 1.2: goal_achievement 0.6 + environment 0.2 + service 0.2 + agent 0.2 (unset ones use their defaults)',
      ],
    ],
  },
  {
    name: 'negative scoring weight',
    files: { 'axis.config.json': config({ settings: { scoring_weights: { service: -0.2 } } }), ...withHello },
    expected: [['axis.config.json', 'settings.scoring_weights.service', 'expected a weight ≥ 0, found -0.2']],
  },
  {
    name: 'limits: fractional tokens and zero minutes',
    files: {
      'axis.config.json': config({
        settings: { limits: { scenario: { tokens: 1.5 }, run: { time_minutes: 0 } } },
      }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'settings.limits.run.time_minutes',
        'expected a positive number of minutes, found 0',
      ],
      [
        'axis.config.json',
        'settings.limits.scenario.tokens',
        'expected a positive integer number of tokens, found 1.5',
      ],
    ],
  },
  {
    name: 'threshold above 100 and a misspelled threshold',
    files: {
      'axis.config.json': config({ settings: { thresholds: { axis_score: 120, enviroment: 50 } } }),
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'settings.thresholds.axis_score', 'expected a number from 0 to 100, found 120'],
      ['axis.config.json', 'settings.thresholds.enviroment', 'unknown key; did you mean "environment"?'],
    ],
  },
  {
    // A share where points belong (reliability beside them is 0–1) would gate on next to nothing.
    name: 'a score minimum written as a share of 1',
    files: {
      'axis.config.json': config({ settings: { thresholds: { axis_score: 0.8, reliability: 0.8 } } }),
      ...withHello,
      'scenarios/other.json': {
        name: 'Other',
        prompt: 'p',
        judge: [{ check: 'done' }],
        thresholds: { goal_achievement: 0.95 },
      },
    },
    expected: [
      [
        'axis.config.json',
        'settings.thresholds.axis_score',
        'expected points from 0 to 100 (80 for 80%), found 0.8',
      ],
      [
        'scenarios/other.json',
        'thresholds.goal_achievement',
        'expected points from 0 to 100 (95 for 95%), found 0.95',
      ],
    ],
  },
  {
    // Shown in terminals and reports: an escape sequence there retitles the terminal or clears it.
    name: 'control characters in a scenario name or a scenario file name',
    files: {
      'axis.config.json': config(),
      'scenarios/a.json': { name: 'a\u001b]0;pwn\u0007', prompt: 'p', judge: [{ check: 'done' }] },
      'scenarios/b\u001b[2J.json': { name: 'b', prompt: 'p', judge: [{ check: 'done' }] },
      // A bidi override reorders the rest of the line it is printed on (Trojan Source).
      'scenarios/c.json': { name: 'c\u202egnp.exe', prompt: 'p', judge: [{ check: 'done' }] },
      'scenarios/d\u2067x.json': { name: 'd', prompt: 'p', judge: [{ check: 'done' }] },
    },
    expected: [
      [
        'scenarios/a.json',
        'name',
        'expected a scenario name without control characters, found "a\\u001b]0;pwn\\u0007"',
      ],
      [
        'axis.config.json',
        'scenarios',
        'the scenario file "scenarios/b\\u001b[2J.json" has control characters in its name; rename it',
      ],
      [
        'scenarios/c.json',
        'name',
        'expected a scenario name without control characters, found "c\\u202egnp.exe"',
      ],
      [
        'axis.config.json',
        'scenarios',
        'the scenario file "scenarios/d\\u2067x.json" has control characters in its name; rename it',
      ],
    ],
  },
  {
    name: 'simulate must be a boolean or an object',
    files: { 'axis.config.json': config({ settings: { simulate: 'yes' } }), ...withHello },
    expected: [['axis.config.json', 'settings.simulate', 'expected true, false or { tapes }, found "yes"']],
  },
  {
    // An object is the { mode, ports } form: its own field is named, not "expected "host" or "loopback"".
    name: 'network object: a bad mode, a port as a string, ports without a mode',
    files: {
      'axis.config.json': config({ settings: { network: { mode: 'lo', ports: ['80'] } } }),
      'scenarios/s.json': { ...hello, network: { ports: [80] } },
    },
    expected: [
      ['axis.config.json', 'settings.network.mode', 'expected one of "host", "loopback", found "lo"'],
      ['axis.config.json', 'settings.network.ports[0]', 'expected a TCP port from 1 to 65535, found "80"'],
      ['scenarios/s.json', 'network.mode', 'missing; expected one of "host", "loopback"'],
    ],
  },
  {
    // The run stops on these (exit 2): validation says so first, naming the field.
    name: 'skill sources of no known form',
    files: {
      'axis.config.json': config({
        skills: ['myskill', './skills/later'],
        agents: [{ agent: 'codex', skills: ['a b'] }],
      }),
      'scenarios/s.json': { ...hello, skills: ['x y'], variants: [{ name: 'v', skills: ['x#'] }] },
    },
    expected: [
      ['axis.config.json', 'skills[0]', `${SKILL_FORMS}, found "myskill"`],
      ['axis.config.json', 'agents[0].skills[0]', `${SKILL_FORMS}, found "a b"`],
      ['scenarios/s.json', 'skills[0]', `${SKILL_FORMS}, found "x y"`],
      ['scenarios/s.json', 'variants[0].skills[0]', `${SKILL_FORMS}, found "x#"`],
    ],
  },
  {
    // Codex refuses "my docs" at start-up, and the other CLIs rewrite such names inside their tool names.
    name: 'MCP server names beyond letters, digits, "_" and "-"',
    files: {
      'axis.config.json': config({ mcp_servers: { 'my docs': { type: 'stdio', command: 'x' } } }),
      'scenarios/s.json': { ...hello, mcp_servers: { '': { type: 'http', url: 'http://127.0.0.1:1' } } },
    },
    expected: [
      ['axis.config.json', 'mcp_servers["my docs"]', `invalid name: ${MCP_NAME}, found "my docs"`],
      ['scenarios/s.json', 'mcp_servers[""]', `invalid name: ${MCP_NAME}, found an empty string`],
    ],
  },
  // --- top level and agents
  {
    name: 'unknown top-level key with a suggestion',
    files: { 'axis.config.json': { agent: ['claude-code'], agents: ['codex'] }, ...withHello },
    expected: [['axis.config.json', 'agent', 'unknown key; did you mean "agents"?']],
  },
  {
    name: 'missing agents',
    files: { 'axis.config.json': { scenarios: './scenarios' }, ...withHello },
    expected: [['axis.config.json', 'agents', 'missing; expected an array of agents']],
  },
  {
    name: 'empty agent list',
    files: { 'axis.config.json': { agents: [] }, ...withHello },
    expected: [['axis.config.json', 'agents', 'expected at least one agent, found an empty array']],
  },
  {
    name: 'unknown agent name with nothing close to it',
    files: { 'axis.config.json': { agents: ['muse'] }, ...withHello },
    expected: [
      [
        'axis.config.json',
        'agents[0]',
        'unknown agent "muse". Built-in agents: claude-code, codex, gemini, qwen-code, opencode, acp, command; add custom ones under "adapters". Any ACP agent runs as { "agent": "acp", "command": "<executable>" }; `axis agents` lists the presets',
      ],
    ],
  },
  {
    name: 'unknown agent name with a suggestion',
    files: { 'axis.config.json': { agents: ['claud-code'] }, ...withHello },
    expected: [
      [
        'axis.config.json',
        'agents[0]',
        'unknown agent "claud-code"; did you mean "claude-code"? Built-in agents: claude-code, codex, gemini, qwen-code, opencode, acp, command; add custom ones under "adapters". Any ACP agent runs as { "agent": "acp", "command": "<executable>" }; `axis agents` lists the presets',
      ],
    ],
  },
  {
    name: 'a model on an agent that cannot take one, and a missing command',
    files: { 'axis.config.json': { agents: [{ agent: 'acp', model: 'gpt-5' }] }, ...withHello },
    expected: [
      [
        'axis.config.json',
        'agents[0].model',
        'agent "acp" cannot take a model: it runs the command you configure; set the model in "args" instead',
      ],
      [
        'axis.config.json',
        'agents[0].command',
        'missing; agent "acp" needs "command" (the executable to run)',
      ],
    ],
  },
  {
    name: 'prompt_via on an agent other than "command", and a typo in an agent key',
    files: {
      'axis.config.json': { agents: [{ agent: 'claude-code', prompt_via: 'arg', modle: 'opus' }] },
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'agents[0].modle', 'unknown key; did you mean "model"?'],
      [
        'axis.config.json',
        'agents[0].prompt_via',
        'only applies to agent "command", found agent "claude-code"',
      ],
    ],
  },
  {
    name: 'flag values must be strings or booleans',
    files: { 'axis.config.json': { agents: [{ agent: 'codex', flags: { verbose: 1 } }] }, ...withHello },
    expected: [['axis.config.json', 'agents[0].flags.verbose', 'expected a string or true/false, found 1']],
  },
  {
    name: 'duplicate agent identities ask for a name',
    files: {
      'axis.config.json': {
        agents: ['codex', { agent: 'claude-code', model: 'opus' }, { agent: 'Claude-Code', model: 'Opus' }],
      },
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'agents[2]',
        'duplicate agent name "claude-code|opus" (also agents[1]); set "name" on one of them to tell them apart',
      ],
    ],
  },
  // --- mcp, env, adapters, judge, lifecycle
  {
    name: 'classify rules name a category',
    files: {
      'axis.config.json': config({ classify: { 'acme_*': 'api', ok_tool: 'service' } }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'classify["acme_*"]',
        'expected one of "environment", "service", "agent", found "api"',
      ],
    ],
  },
  {
    name: 'classify is an object',
    files: { 'axis.config.json': config({ classify: ['acme_*'] }), ...withHello },
    expected: [
      [
        'axis.config.json',
        'classify',
        'expected an object of tool-name glob: "environment", "service" or "agent", found an array',
      ],
    ],
  },
  {
    name: 'unknown MCP server type',
    files: {
      'axis.config.json': config({ mcp_servers: { docs: { type: 'sse', url: 'http://x' } } }),
      ...withHello,
    },
    expected: [['axis.config.json', 'mcp_servers.docs.type', 'expected one of "stdio", "http", found "sse"']],
  },
  {
    name: 'stdio MCP server without a command, http server with a broken ${VAR}',
    files: {
      'axis.config.json': config({
        mcp_servers: {
          local: { type: 'stdio', args: ['x'] },
          'my-api': {
            type: 'http',
            url: 'https://api.example.com/mcp',
            headers: { Authorization: 'Bearer ${TOKEN' },
          },
        },
      }),
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'mcp_servers.local.command', 'missing; expected a command'],
      [
        'axis.config.json',
        'mcp_servers.my-api.headers.Authorization',
        'expected every "${" to be closed by "}", found "Bearer ${TOKEN"',
      ],
    ],
  },
  {
    name: "a broken ${VAR} in a stdio MCP server's command or args (resolved like env)",
    files: {
      'axis.config.json': config({
        mcp_servers: { local: { type: 'stdio', command: '${BIN', args: ['--key', '${1KEY}'] } },
      }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'mcp_servers.local.command',
        'expected every "${" to be closed by "}", found "${BIN"',
      ],
      [
        'axis.config.json',
        'mcp_servers.local.args[1]',
        'expected ${NAME} references to name an environment variable, found "${1KEY}"',
      ],
    ],
  },
  {
    name: 'env names must be variable names',
    files: { 'axis.config.json': config({ env: ['GOOD_NAME', 'MY-VAR'] }), ...withHello },
    expected: [
      [
        'axis.config.json',
        'env[1]',
        'expected an environment variable name (letters, digits, _), found "MY-VAR"',
      ],
    ],
  },
  {
    name: 'custom adapter module must exist and may not shadow a built-in',
    files: {
      'axis.config.json': config({ adapters: { echo: './adapters/echo.ts', codex: './adapters/codex.js' } }),
      ...withHello,
    },
    expected: (dir) => [
      [
        'axis.config.json',
        'adapters.echo',
        `expected an existing module file, found "./adapters/echo.ts" (${dir}/adapters/echo.ts does not exist)`,
      ],
      [
        'axis.config.json',
        'adapters.codex',
        'a custom adapter may not reuse the built-in name "codex"; pick another name',
      ],
    ],
  },
  {
    name: 'judge provider "agent" needs an agent',
    files: { 'axis.config.json': config({ judge: { provider: 'agent' } }), ...withHello },
    expected: [
      [
        'axis.config.json',
        'judge.agent',
        'missing; provider "agent" needs an agent entry (e.g. "claude-code")',
      ],
    ],
  },
  {
    name: 'judge provider "agent" with fields only an HTTP judge uses',
    files: {
      'axis.config.json': config({
        judge: {
          provider: 'agent',
          agent: 'codex',
          model: 'gpt-5',
          base_url: 'http://127.0.0.1:8000/v1',
          api_key_env: 'JUDGE_KEY',
        },
      }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'judge.model',
        'only used with provider "anthropic" or "openai", found provider "agent"; give the judge agent its own model: "agent": { "agent": "…", "model": "…" }',
      ],
      [
        'axis.config.json',
        'judge.base_url',
        'only used with provider "anthropic" or "openai", found provider "agent"; the judge agent reaches its provider as it would under test (its "env")',
      ],
      [
        'axis.config.json',
        'judge.api_key_env',
        'only used with provider "anthropic" or "openai", found provider "agent"; the judge agent reaches its provider as it would under test (its "env")',
      ],
    ],
  },
  {
    name: 'unknown judge provider',
    files: { 'axis.config.json': config({ judge: { provider: 'gpt', max_retries: -1 } }), ...withHello },
    expected: [
      ['axis.config.json', 'judge.provider', 'expected one of "anthropic", "openai", "agent", found "gpt"'],
      ['axis.config.json', 'judge.max_retries', 'expected an integer ≥ 0, found -1'],
    ],
  },
  {
    name: 'a key pasted where a variable name belongs is not echoed',
    files: {
      'axis.config.json': config({
        judge: { provider: 'anthropic', api_key_env: 'sk-ant-api03-0123456789' },
      }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'judge.api_key_env',
        'expected an environment variable name (letters, digits, _), found a value that looks like a secret (not shown)',
      ],
    ],
  },
  {
    name: 'judge and the older judging together',
    files: {
      'axis.config.json': config({ judge: { provider: 'anthropic' }, judging: { agents: ['codex'] } }),
      ...withHello,
    },
    expected: [['axis.config.json', 'judging', 'expected either "judge" or the older "judging", found both']],
  },
  {
    name: 'lifecycle: unknown action and missing command',
    files: {
      'axis.config.json': config({
        beforeAll: [{ action: 'shell', command: 'x' }, { action: 'run_script' }],
      }),
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'beforeAll[0].action', 'expected one of "run_script", "copy", found "shell"'],
      ['axis.config.json', 'beforeAll[1].command', 'missing; expected a shell command'],
    ],
  },
  // --- sources
  {
    name: 'scenarios path that does not exist',
    files: { 'axis.config.json': config({ scenarios: './scenarioz' }) },
    expected: (dir) => [
      [
        'axis.config.json',
        'scenarios',
        `expected an existing file or directory, found "./scenarioz" (${dir}/scenarioz does not exist)`,
      ],
    ],
  },
  {
    name: 'git source that cannot be fetched names the URL and why',
    files: {
      'axis.config.json': config({ scenarios: ['file:///nonexistent-axis/acme/agent-tests.git#v2'] }),
    },
    expected: [
      [
        'axis.config.json',
        'scenarios[0]',
        "cannot fetch from file:///nonexistent-axis/acme/agent-tests.git: '/nonexistent-axis/acme/agent-tests.git' does not appear to be a git repository",
      ],
    ],
  },
  {
    name: 'malformed git URL',
    files: {
      'axis.config.json': config({ scenarios: ['./scenarios', 'https://github.com/only-owner'] }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'scenarios[1]',
        'expected a git URL like https://host/owner/repo(.git) or git@host:owner/repo.git, found "https://github.com/only-owner"',
      ],
    ],
  },
  // --- files that do not load
  {
    name: 'JSON syntax error names line and column',
    files: { 'axis.config.json': '{\n  "agents": ["claude-code"],\n}\n', ...withHello },
    expected: [['axis.config.json', '', 'invalid JSON at line 3, column 1: trailing comma before "}"']],
  },
  {
    name: 'config that is not an object',
    files: { 'axis.config.json': '["claude-code"]', ...withHello },
    expected: [['axis.config.json', '', 'expected a config object, found an array']],
  },
  {
    name: 'TS config whose function throws',
    files: { 'axis.config.ts': 'export default () => { throw new Error("no creds"); };', ...withHello },
    expected: [['axis.config.ts', '', 'the default-exported function threw: no creds']],
  },
  {
    name: 'TS config without a default export',
    files: { 'axis.config.ts': 'export const config = { agents: ["codex"] };', ...withHello },
    expected: [['axis.config.ts', '', 'expected a default export (an object, or a function returning one)']],
  },
  {
    name: 'inline scenario without a key',
    files: {
      'axis.config.ts':
        'export default { agents: ["codex"], scenarios: [{ name: "x", prompt: "p", judge: "ok" }] };',
    },
    expected: [['axis.config.ts', 'scenarios[0].key', 'missing; expected a scenario key']],
  },
  {
    // Each part of a key is a folder under the report's scenarios/: ".." would write the runs elsewhere.
    name: 'inline scenario keys with "..", ".", an empty part or a leading "/"',
    files: {
      'axis.config.ts': `const s = (key) => ({ key, name: "x", prompt: "p", judge: "ok" });
        export default { agents: ["codex"], scenarios: [s("../up"), s("a/./b"), s("a//b"), s("/abs"), s("ok/fine")] };`,
    },
    expected: ['../up', 'a/./b', 'a//b', '/abs'].map((key, i) => [
      'axis.config.ts',
      `scenarios[${i}].key`,
      `expected folder names separated by "/" (each part is a folder in the report; none may be empty, "." or ".."), found ${JSON.stringify(key)}`,
    ]),
  },
  // --- profiles
  {
    name: 'unknown profile lists the known ones',
    files: { 'axis.config.json': config({ profiles: { ci: {}, nightly: {} } }), ...withHello },
    profile: 'cl',
    expected: [
      [
        'axis.config.json',
        'profiles',
        'no profile named "cl"; did you mean "ci"? (known profiles: ci, nightly)',
      ],
    ],
  },
  {
    name: 'profile overlay is validated like the config',
    files: {
      'axis.config.json': config({ profiles: { ci: { settings: { runs: 2 }, agnets: [] } } }),
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'profiles.ci.settings.runs', EVEN],
      ['axis.config.json', 'profiles.ci.agnets', 'unknown key; did you mean "agents"?'],
    ],
  },
  {
    name: 'a merged problem the profile did not set itself names the profile',
    files: {
      'axis.config.json': config({
        agents: [{ agent: 'codex', scenarios: ['hello'] }],
        profiles: { other: { scenarios: './other' } },
      }),
      ...withHello,
      'other/x.json': hello,
    },
    profile: 'other',
    expected: [
      [
        'axis.config.json',
        'agents[0].scenarios[0]',
        'no scenario has the key "hello" (with profile "other")',
      ],
    ],
  },
  {
    name: 'merged profile is checked as a whole',
    files: {
      'axis.config.json': config({
        profiles: { heavy: { settings: { scoring_weights: { goal_achievement: 0.9 } } } },
      }),
      ...withHello,
    },
    profile: 'heavy',
    expected: [
      [
        'axis.config.json',
        'profiles.heavy.settings.scoring_weights',
        'expected the weights to sum to 1 (± 0.01), found 1.5: goal_achievement 0.9 + environment 0.2 + service 0.2 + agent 0.2 (unset ones use their defaults)',
      ],
    ],
  },
  // --- scenarios
  {
    name: 'scenario without prompt, and an empty name',
    files: scenario({ name: '', judge: 'ok' }),
    expected: [
      ['scenarios/s.json', 'name', 'expected a scenario name, found an empty string'],
      ['scenarios/s.json', 'prompt', 'missing; expected a non-empty prompt'],
    ],
  },
  {
    name: 'whitespace-only prompt',
    files: scenario({ name: 'x', prompt: '   ', judge: 'ok' }),
    expected: [['scenarios/s.json', 'prompt', 'expected a non-empty prompt, found "   "']],
  },
  {
    name: 'typo in a judge entry and a negative weight',
    files: scenario({
      name: 'x',
      prompt: 'p',
      judge: [
        { check: 'a', wieght: 0.5 },
        { check: 'b', weight: -1 },
      ],
    }),
    expected: [
      ['scenarios/s.json', 'judge[0].wieght', 'unknown key; did you mean "weight"?'],
      ['scenarios/s.json', 'judge[1].weight', 'expected a weight ≥ 0, found -1'],
    ],
  },
  {
    name: 'judge and rubric together',
    files: scenario({ name: 'x', prompt: 'p', judge: 'a', rubric: 'b' }),
    expected: [
      ['scenarios/s.json', 'rubric', 'expected either "judge" or its legacy alias "rubric", found both'],
    ],
  },
  {
    name: 'explicit weights over 1',
    files: scenario({
      name: 'x',
      prompt: 'p',
      judge: [{ check: 'a', weight: 0.8 }],
      checks: [{ file: 'a.txt', exists: true, weight: 0.5 }],
    }),
    expected: [
      [
        'scenarios/s.json',
        '',
        'expected criterion weights to sum to at most 1, found 1.3 (judge[0] 0.8 + checks[0] 0.5)',
      ],
    ],
  },
  {
    name: 'explicit weights of 1 leave nothing for unweighted criteria',
    files: scenario({ name: 'x', prompt: 'p', judge: [{ check: 'a', weight: 1 }, { check: 'b' }] }),
    expected: [
      [
        'scenarios/s.json',
        '',
        'explicit weights already sum to 1, leaving nothing for judge[1]; give every criterion a weight or lower the explicit ones',
      ],
    ],
  },
  {
    name: 'no criteria at all',
    files: scenario({ name: 'x', prompt: 'p', judge: [] }),
    expected: [
      [
        'scenarios/s.json',
        'judge',
        'expected at least one criterion (a judge check or a deterministic check), found none',
      ],
    ],
  },
  {
    name: 'declared key that differs from the path',
    files: { 'axis.config.json': config(), 'scenarios/cms/post.json': { ...hello, key: 'cms/create-post' } },
    expected: [
      [
        'scenarios/cms/post.json',
        'key',
        'expected "cms/post" (the key derived from the file path) or no key, found "cms/create-post"',
      ],
    ],
  },
  {
    name: 'duplicate keys from two sources',
    files: {
      'axis.config.json': config({ scenarios: ['./a', './b'] }),
      'a/hello.json': hello,
      'b/hello.json': hello,
    },
    expected: [['b/hello.json', '', 'duplicate scenario key "hello" (also defined by a/hello.json)']],
  },
  {
    name: 'variant names: bad characters and duplicates',
    files: scenario({ ...hello, variants: [{ name: 'with space' }, { name: 'v1' }, { name: 'v1' }] }),
    expected: [
      [
        'scenarios/s.json',
        'variants[0].name',
        'expected a variant name of letters, digits, "_" and "-", found "with space"',
      ],
    ],
  },
  {
    name: "a weight problem inherited by every variant is reported once; the variant's own one at the variant",
    files: scenario({
      name: 'x',
      prompt: 'p',
      judge: [
        { check: 'a', weight: 0.7 },
        { check: 'b', weight: 0.7 },
      ],
      variants: [{ name: 'one' }, { name: 'two' }, { name: 'three', checks: [{ run: 'true', weight: 2 }] }],
    }),
    expected: [
      [
        'scenarios/s.json',
        '',
        'expected criterion weights to sum to at most 1, found 1.4 (judge[0] 0.7 + judge[1] 0.7)',
      ],
      [
        'scenarios/s.json',
        'variants[2]',
        'expected criterion weights to sum to at most 1, found 3.4 (judge[0] 0.7 + judge[1] 0.7 + checks[0] 2)',
      ],
    ],
  },
  {
    name: 'duplicate variant names',
    files: scenario({ ...hello, variants: [{ name: 'v1' }, { name: 'v1', prompt: 'other' }] }),
    expected: [['scenarios/s.json', 'variants[1].name', 'duplicate variant name "v1" (also variants[0])']],
  },
  {
    name: 'checks: paths outside the workspace, a bad regex, two kinds, a bad status',
    files: scenario({
      name: 'x',
      prompt: 'p',
      checks: [
        { file: '/etc/passwd', exists: true },
        { file: 'src/../../x', contains: 'y' },
        { result_matches: '(unclosed' },
        { file: 'a', exists: true, contains: 'b' },
        { http: { url: 'http://127.0.0.1:8080/', status: 700 } },
        { run: 'npm test', expect_exit: 'zero' },
        { file: 'a' },
      ],
    }),
    expected: [
      [
        'scenarios/s.json',
        'checks[0].file',
        'expected a relative path inside the workspace, found "/etc/passwd"',
      ],
      [
        'scenarios/s.json',
        'checks[1].file',
        'expected a relative path inside the workspace, found "src/../../x"',
      ],
      [
        'scenarios/s.json',
        'checks[2].result_matches',
        'expected a valid regular expression, found "(unclosed" (Unterminated group)',
      ],
      ['scenarios/s.json', 'checks[3]', 'expected exactly one kind of check, found "exists" and "contains"'],
      ['scenarios/s.json', 'checks[4].http.status', 'expected an HTTP status code, found 700'],
      ['scenarios/s.json', 'checks[5].expect_exit', 'expected an integer exit code, found "zero"'],
      ['scenarios/s.json', 'checks[6]', 'expected "exists", "contains" or "matches" next to "file"'],
    ],
  },
  {
    name: 'http checks whose "contains" can never match: the response has no body',
    files: scenario({
      name: 'x',
      prompt: 'p',
      checks: [
        { http: { url: 'http://127.0.0.1:8080/', method: 'HEAD', contains: 'ok' } },
        { http: { url: 'http://127.0.0.1:8080/', status: 204, contains: 'ok' } },
        { http: { url: 'http://127.0.0.1:8080/', status: 304, contains: 'ok' } },
        { http: { url: 'http://127.0.0.1:8080/', method: 'HEAD', status: 204 } },
      ],
    }),
    expected: [
      [
        'scenarios/s.json',
        'checks[0].http.contains',
        'can never match: a response to HEAD has no body; use "method": "GET", or drop "contains"',
      ],
      [
        'scenarios/s.json',
        'checks[1].http.contains',
        'can never match: a 204 response has no body; expect another status, or drop "contains"',
      ],
      [
        'scenarios/s.json',
        'checks[2].http.contains',
        'can never match: a 304 response has no body; expect another status, or drop "contains"',
      ],
    ],
  },
  {
    name: 'http checks expecting a 1xx status could never pass: a 1xx answer is never the final one',
    files: scenario({
      name: 'x',
      prompt: 'p',
      checks: [
        { http: { url: 'http://127.0.0.1:8080/', status: 101 } },
        { http: { url: 'http://127.0.0.1:8080/', status: 200 } },
      ],
    }),
    expected: [
      [
        'scenarios/s.json',
        'checks[0].http.status',
        'expected a final HTTP status code (200 to 599: a 1xx answer is interim), found 101',
      ],
    ],
  },
  {
    name: 'artifacts patterns that leave the workspace could never capture anything',
    files: {
      'axis.config.json': config({ artifacts: ['/etc/hostname', '../logs/*.log', 'dist/**', 'a/../b'] }),
      'scenarios/s.json': { ...hello, artifacts: ['C:/x', 'out/*.txt'] },
    },
    expected: [
      [
        'axis.config.json',
        'artifacts[0]',
        'expected a glob relative to the workspace, without "..", found "/etc/hostname"',
      ],
      [
        'axis.config.json',
        'artifacts[1]',
        'expected a glob relative to the workspace, without "..", found "../logs/*.log"',
      ],
      [
        'axis.config.json',
        'artifacts[3]',
        'expected a glob relative to the workspace, without "..", found "a/../b"',
      ],
      [
        'scenarios/s.json',
        'artifacts[0]',
        'expected a glob relative to the workspace, without "..", found "C:/x"',
      ],
    ],
  },
  {
    name: 'token limits on a command agent reading plain text, which reports no token counts',
    files: {
      'axis.config.json': config({
        agents: [
          { agent: 'command', name: 'txt', command: './agent.sh' },
          { agent: 'command', name: 'nd', command: './agent.sh', output: 'ndjson' },
          { agent: 'command', name: 'txt2', command: './agent.sh', output: 'text', scenarios: ['s'] },
        ],
        settings: { limits: { run: { tokens: 1000 }, scenario: { tokens: 100 } } },
      }),
      'scenarios/s.json': { ...hello, limits: { tokens: 50 } },
    },
    expected: [
      [
        'axis.config.json',
        'settings.limits.run.tokens',
        'agent "txt" (agents[0], agent "command" with output "text") reports no token counts, so a token limit cannot stop it; remove the limit, or have the command print AXIS NDJSON with usage events ("output": "ndjson")',
      ],
      [
        'axis.config.json',
        'settings.limits.scenario.tokens',
        'agent "txt" (agents[0], agent "command" with output "text") reports no token counts, so a token limit cannot stop it; remove the limit, or have the command print AXIS NDJSON with usage events ("output": "ndjson")',
      ],
      [
        'axis.config.json',
        'settings.limits.run.tokens',
        'agent "txt2" (agents[2], agent "command" with output "text") reports no token counts, so a token limit cannot stop it; remove the limit, or have the command print AXIS NDJSON with usage events ("output": "ndjson")',
      ],
      [
        'axis.config.json',
        'settings.limits.scenario.tokens',
        'agent "txt2" (agents[2], agent "command" with output "text") reports no token counts, so a token limit cannot stop it; remove the limit, or have the command print AXIS NDJSON with usage events ("output": "ndjson")',
      ],
    ],
  },
  {
    name: "a scenario's token limit on a command agent reading plain text",
    files: {
      'axis.config.json': config({ agents: [{ agent: 'command', name: 'txt', command: './agent.sh' }] }),
      'scenarios/s.json': { ...hello, limits: { tokens: 50 } },
      'scenarios/t.json': hello,
    },
    expected: [
      [
        'axis.config.json',
        'agents[0]',
        'agent "txt" (agents[0], agent "command" with output "text") reports no token counts, so a token limit cannot stop it, and scenario s set limits.tokens; remove those limits, or keep the agent off them with its "scenarios" filter',
      ],
    ],
  },
  {
    name: 'env naming variables AXIS sets for every job (its HOME, TMPDIR, XDG dirs, its AXIS_ variables)',
    files: {
      'axis.config.json': config({
        agents: [{ agent: 'claude-code', env: { TMPDIR: '/tmp/x', PATH: '/opt/bin:/usr/bin' } }],
        env: {
          HOME: '/home/me',
          XDG_CONFIG_HOME: '/home/me/.config',
          AXIS_PROMPT_FILE: '/p',
          AXIS_MY_SERVICE: 'a name of my own',
          LANG: 'C',
        },
        judge: { provider: 'agent', agent: { agent: 'codex', env: { XDG_STATE_HOME: '/s' } } },
      }),
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'agents[0].env.TMPDIR', RESERVED('TMPDIR')],
      ['axis.config.json', 'env.HOME', RESERVED('HOME')],
      ['axis.config.json', 'env.XDG_CONFIG_HOME', RESERVED('XDG_CONFIG_HOME')],
      ['axis.config.json', 'env.AXIS_PROMPT_FILE', RESERVED('AXIS_PROMPT_FILE')],
      ['axis.config.json', 'judge.agent.env.XDG_STATE_HOME', RESERVED('XDG_STATE_HOME')],
    ],
  },
  {
    name: "a profile's env passing the host HOME through",
    files: {
      'axis.config.json': config({ profiles: { host: { env: ['GITHUB_TOKEN', 'HOME'] } } }),
      ...withHello,
    },
    expected: [['axis.config.json', 'profiles.host.env[1]', RESERVED('HOME')]],
  },
  {
    name: 'a scenarios glob that matches no scenario file',
    files: {
      'axis.config.json': config({
        scenarios: ['./scenarios', './suites/**/*.json', './scenarios/*.yaml', './scenarios/_*.json'],
      }),
      ...withHello,
      'scenarios/notes.yaml': 'name: not a scenario format',
      'scenarios/_shared.json': { helper: true },
    },
    expected: [
      [
        'scenarios/notes.yaml',
        '',
        'expected a scenario file (.json, .js, .mjs, .cjs, .ts, .mts or .cts), found YAML, which AXIS does not read; convert it to JSON, or name it _notes.yaml (or put it in a folder starting with _) to keep it as data',
      ],
      [
        'axis.config.json',
        'scenarios[1]',
        'the glob "./suites/**/*.json" matches no scenario file (.json, .js, .mjs, .cjs, .ts, .mts, .cts; helpers starting with "_" do not count)',
      ],
      [
        'axis.config.json',
        'scenarios[3]',
        'the glob "./scenarios/_*.json" matches no scenario file (.json, .js, .mjs, .cjs, .ts, .mts, .cts; helpers starting with "_" do not count)',
      ],
    ],
  },
  {
    name: "a scenario's network ports with mode host, where they open nothing",
    files: scenario({
      ...hello,
      network: { mode: 'host', ports: [3000] },
      variants: [{ name: 'a' }, { name: 'b', network: { mode: 'loopback', ports: [4000] } }],
    }),
    expected: [
      [
        'scenarios/s.json',
        'network.ports',
        'only used with mode "loopback" (the host network reaches every port); remove them or set "mode": "loopback"',
      ],
    ],
  },
  {
    // AXIS reads each CLI's run through the flags it passes itself: a user flag of the same name made the
    // run unreadable (a "completed" job with no final answer) or brought MCP servers AXIS did not declare.
    name: 'agent flags that AXIS passes the CLI itself',
    files: {
      'axis.config.json': config({
        agents: [
          {
            agent: 'claude-code',
            flags: { 'output-format': 'text', '--mcp-config': '/tmp/x.json', model: 'm' },
          },
          { agent: 'codex', name: 'cx', flags: { json: false, m: 'gpt' } },
          { agent: 'gemini', flags: { 'output-format': 'json', yolo: true } },
          { agent: 'qwen-code', flags: { 'input-format': 'stream-json' } },
          { agent: 'opencode', flags: { format: 'default', 'print-logs': true } },
        ],
      }),
      ...withHello,
    },
    expected: [
      [
        'axis.config.json',
        'agents[0].flags.output-format',
        FIXED('claude-code', '--output-format', 'AXIS reads the run from its stream-json output'),
      ],
      [
        'axis.config.json',
        'agents[0].flags.--mcp-config',
        FIXED('claude-code', '--mcp-config', 'only the servers mcp_servers declares are given to the agent'),
      ],
      ['axis.config.json', 'agents[0].flags.model', FIXED('claude-code', '--model', 'set "model" instead')],
      [
        'axis.config.json',
        'agents[1].flags.json',
        FIXED('codex', '--json', 'AXIS reads the run from its JSON events'),
      ],
      ['axis.config.json', 'agents[1].flags.m', FIXED('codex', '-m', 'set "model" instead')],
      [
        'axis.config.json',
        'agents[2].flags.output-format',
        FIXED('gemini', '--output-format', 'AXIS reads the run from its stream-json output'),
      ],
      [
        'axis.config.json',
        'agents[3].flags.input-format',
        FIXED('qwen-code', '--input-format', 'AXIS passes the prompt as plain text'),
      ],
      [
        'axis.config.json',
        'agents[4].flags.format',
        FIXED('opencode', '--format', 'AXIS reads the run from its JSON events'),
      ],
    ],
  },
  {
    // An empty list ran nothing with that agent, without a word; a scenario's empty `agents` is refused too.
    name: "an agent's scenarios: empty list",
    files: { 'axis.config.json': config({ agents: [{ agent: 'codex', scenarios: [] }] }), ...withHello },
    expected: [
      [
        'axis.config.json',
        'agents[0].scenarios',
        'expected at least one scenario key or glob ("*" = all, or leave the field out), found an empty array',
      ],
    ],
  },
  {
    name: 'scenario agents: empty list, and an unknown name',
    files: {
      'axis.config.json': config(),
      'scenarios/a.json': { ...hello, agents: [] },
      'scenarios/b.json': { ...hello, agents: ['codx'] },
    },
    expected: [
      ['scenarios/a.json', 'agents', 'expected at least one agent name, found an empty array'],
      [
        'scenarios/b.json',
        'agents[0]',
        'unknown agent "codx"; did you mean "codex"? (known: claude-code, codex, gemini, qwen-code, opencode, acp, command)',
      ],
    ],
  },
  {
    name: "an agent's scenario filter naming no scenario",
    files: {
      'axis.config.json': { agents: [{ agent: 'codex', scenarios: ['helo', 'cms/*'] }] },
      ...withHello,
    },
    expected: [
      ['axis.config.json', 'agents[0].scenarios[0]', 'no scenario has the key "helo"; did you mean "hello"?'],
      ['axis.config.json', 'agents[0].scenarios[1]', 'the glob "cms/*" matches no scenario (keys: hello)'],
    ],
  },
  {
    name: 'scenario module that throws, and one that is not valid JSON',
    files: {
      'axis.config.json': config(),
      'scenarios/boom.ts': 'throw new Error("cannot build scenario");\nexport default {};',
      'scenarios/broken.json': '{ "name": "x", "prompt": \'p\' }',
    },
    expected: [
      ['scenarios/boom.ts', '', 'could not load the module: cannot build scenario'],
      ['scenarios/broken.json', '', 'invalid JSON at line 1, column 26: strings must use double quotes'],
    ],
  },
  {
    name: 'every problem of every file at once',
    files: {
      'axis.config.json': { agents: ['claude-code'], settings: { runs: 2 }, scenarios: './scenarios' },
      'scenarios/a.json': { name: 'a', prompt: 'p' },
      'scenarios/b/c.json': { name: 'c', prompt: 'p', judge: 'x', skipp: true },
    },
    expected: [
      ['axis.config.json', 'settings.runs', EVEN],
      [
        'scenarios/a.json',
        'judge',
        'expected at least one criterion (a judge check or a deterministic check), found none',
      ],
      ['scenarios/b/c.json', 'skipp', 'unknown key; did you mean "skip"?'],
    ],
  },
];

describe('invalid configs and scenarios', () => {
  test('the table is big enough', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  test.each(cases)('$name', async (c) => {
    const dir = project(c.files);
    const issues = await issuesOf(dir, c.profile ? { profile: c.profile } : {});
    const expected = typeof c.expected === 'function' ? c.expected(dir) : c.expected;
    expect(issues.map((i) => [i.file, i.path, i.message])).toEqual(expected);
  });
});
