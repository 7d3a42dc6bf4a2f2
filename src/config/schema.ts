/**
 * The one zod schema behind config validation, the public TypeScript types and the shipped JSON Schemas
 * (scripts/gen-schemas.mjs). Only the shape lives here; rules that need several fields or the file system
 * (agent capabilities, weight sums, file existence) are in resolve.ts and scenario-resolve.ts.
 * Defaults are applied when resolving, never here, so a profile overlay can tell "unset" from "default".
 */
import * as z from 'zod';
import {
  ENV_NAME,
  bool,
  minutesField,
  describeValue,
  expected,
  isPlainObject,
  nonEmpty,
  nonNegInt,
  nonNegNumber,
  numberBetween,
  obj,
  oneOf,
  posInt,
  refString,
  regexString,
  secondsField,
  str,
  strArray,
  strRecord,
  unionError,
} from './schema-helpers.js';

export const SCHEMA_URLS = {
  config: './node_modules/axis-eval/schema/axis.config.schema.json',
  scenario: './node_modules/axis-eval/schema/scenario.schema.json',
} as const;

const schemaKey = str('a JSON Schema URL or path').describe(
  'JSON Schema reference for editors; ignored by AXIS.',
);

const envName = () =>
  z
    .string(expected('an environment variable name'))
    .regex(ENV_NAME, expected('an environment variable name (letters, digits, _)'));

// ---------------------------------------------------------------------------------------------------------
// Lifecycle actions

const runScriptAction = obj({
  action: z.literal('run_script'),
  command: nonEmpty('a shell command'),
  timeout: secondsField()
    .optional()
    .meta({ description: 'Seconds before the command is stopped.', default: 180 }),
}).meta({
  id: 'RunScriptAction',
  description: 'Run a shell command (cwd: the workspace, or the config dir for beforeAll/afterAll).',
});

const copyAction = obj({
  action: z.literal('copy'),
  match: nonEmpty('a glob relative to the config directory'),
  destination: nonEmpty('a path relative to the workspace'),
}).meta({
  id: 'CopyAction',
  description: 'Copy files matching a glob (relative to the config dir) into the workspace.',
});

const ACTIONS = ['run_script', 'copy'] as const;

export const lifecycleActionSchema = z
  .discriminatedUnion('action', [runScriptAction, copyAction], {
    error: (iss: { input?: unknown }) => discriminatorMessage(iss.input, 'action', ACTIONS),
  })
  .meta({ id: 'LifecycleAction' });

const lifecycleList = () => z.array(lifecycleActionSchema, expected('an array of lifecycle actions'));

/** Message for a discriminated union whose tag is missing or unknown. */
function discriminatorMessage(input: unknown, tag: string, values: readonly string[]): string | undefined {
  const list = values.map((v) => JSON.stringify(v)).join(', ');
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `expected an object with "${tag}": ${list}, found ${describeValue(input)}`;
  }
  const value = (input as Record<string, unknown>)[tag];
  if (value === undefined) return `missing; expected one of ${list}`;
  // Only reached when the tag matches nothing (the issue path ends at the tag); branch errors are separate.
  return `expected one of ${list}, found ${describeValue(value)}`;
}

// ---------------------------------------------------------------------------------------------------------
// MCP servers

const stdioServer = obj({
  type: z.literal('stdio'),
  command: nonEmpty('a command'),
  args: strArray().optional(),
  env: strRecord(refString(), 'an object of NAME: value pairs').optional(),
}).meta({ id: 'McpStdioServer' });

const httpServer = obj({
  type: z.literal('http'),
  url: refString('an http(s) URL', /^(https?:\/\/|\$\{)\S+$/),
  headers: strRecord(refString(), 'an object of header: value pairs').optional(),
}).meta({ id: 'McpHttpServer' });

const MCP_TYPES = ['stdio', 'http'] as const;

export const mcpServerSchema = z
  .discriminatedUnion('type', [stdioServer, httpServer], {
    error: (iss: { input?: unknown }) => discriminatorMessage(iss.input, 'type', MCP_TYPES),
  })
  .meta({ id: 'McpServer', description: 'Values of env and headers may use ${VAR}, resolved at run time.' });

const mcpServers = () => strRecord(mcpServerSchema, 'an object of server name: server');

// ---------------------------------------------------------------------------------------------------------
// Agents

export const agentObjectSchema = obj({
  agent: nonEmpty('an agent name'),
  name: z
    .string(expected('an agent name'))
    .regex(/^[A-Za-z0-9][A-Za-z0-9._|-]*$/, expected('a name of letters, digits, ".", "_", "-", "|"'))
    .optional(),
  model: nonEmpty('a model name').optional(),
  flags: strRecord(
    z.union([z.string(), z.boolean()], expected('a string or true/false')),
    'an object of flag: value',
  ).optional(),
  env: strRecord(str(), 'an object of NAME: value pairs').optional(),
  scenarios: z
    .array(nonEmpty('a scenario key or glob'), expected('an array of scenario keys or globs'))
    .optional(),
  skills: strArray('a skill source').optional(),
  command: nonEmpty('an executable').optional(),
  args: strArray().optional(),
  prompt_via: oneOf(['stdin', 'arg']).optional(),
  output: oneOf(['ndjson', 'text']).optional(),
}).meta({ id: 'AgentConfig' });

export const agentEntrySchema = z
  .union(
    [nonEmpty('an agent name'), agentObjectSchema],
    unionError('an agent name or an agent object', (v) => typeof v === 'string' || isPlainObject(v)),
  )
  .meta({ id: 'AgentEntry' });

const agentList = () =>
  z
    .array(agentEntrySchema, expected('an array of agents'))
    .min(1, { error: 'expected at least one agent, found an empty array' });

// ---------------------------------------------------------------------------------------------------------
// Scenario

const judgeCheck = obj({
  check: nonEmpty('the criterion text'),
  weight: nonNegNumber('a weight ≥ 0').optional(),
}).meta({ id: 'JudgeCheck' });

const judgeField = () =>
  z
    .union(
      [nonEmpty('a criterion'), z.array(judgeCheck, expected('an array of judge checks'))],
      unionError(
        'a string or an array of { check, weight? }',
        (v) => typeof v === 'string' || Array.isArray(v),
      ),
    )
    .meta({ description: 'LLM-judged success criteria.' });

const relativeFile = () =>
  nonEmpty('a path relative to the workspace').superRefine((value, ctx) => {
    const p = value.replace(/\\/g, '/');
    const parts = p.split('/');
    let depth = 0;
    let escapes = /^([a-zA-Z]:)?\//.test(p);
    for (const part of parts) {
      if (part === '..') depth -= 1;
      else if (part !== '.' && part !== '') depth += 1;
      if (depth < 0) escapes = true;
    }
    if (escapes) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a relative path inside the workspace, found ${describeValue(value)}`,
      });
    }
  });

const checkCommon = {
  name: nonEmpty('a label').optional(),
  weight: nonNegNumber('a weight ≥ 0').optional(),
};

const runCheck = obj({
  run: nonEmpty('a shell command'),
  expect_exit: z
    .number(expected('an integer exit code'))
    .int(expected('an integer exit code'))
    .optional()
    .meta({ default: 0 }),
  ...checkCommon,
}).meta({ id: 'RunCheck', description: 'Run a shell command in the workspace and compare its exit code.' });

const fileExistsCheck = obj({ file: relativeFile(), exists: bool(), ...checkCommon }).meta({
  id: 'FileExistsCheck',
});
const fileContainsCheck = obj({ file: relativeFile(), contains: str(), ...checkCommon }).meta({
  id: 'FileContainsCheck',
});
const fileMatchesCheck = obj({ file: relativeFile(), matches: regexString(), ...checkCommon }).meta({
  id: 'FileMatchesCheck',
});
const resultMatchesCheck = obj({ result_matches: regexString(), ...checkCommon }).meta({
  id: 'ResultMatchesCheck',
  description: "Match the agent's final answer against a regular expression.",
});
const httpCheck = obj({
  http: obj({
    url: z.string(expected('an http(s) URL')).regex(/^https?:\/\/\S+$/, expected('an http(s) URL')),
    status: z
      .number(expected('an HTTP status code'))
      .int(expected('an HTTP status code'))
      .min(100, expected('an HTTP status code'))
      .max(599, expected('an HTTP status code'))
      .optional()
      .meta({ default: 200 }),
    method: oneOf(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      .optional()
      .meta({ default: 'GET' }),
    contains: str().optional(),
  }),
  ...checkCommon,
}).meta({ id: 'HttpCheck', description: 'Request a URL after the run and compare status and body.' });

const CHECK_KINDS = ['run', 'exists', 'contains', 'matches', 'result_matches', 'http'] as const;
const CHECK_SHAPES =
  '{ run }, { file, exists }, { file, contains }, { file, matches }, { result_matches } or { http }';

export const checkSchema = z
  .union([runCheck, fileExistsCheck, fileContainsCheck, fileMatchesCheck, resultMatchesCheck, httpCheck], {
    error: (iss: { input?: unknown }) => {
      const input = iss.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        return `expected a check object (${CHECK_SHAPES}), found ${describeValue(input)}`;
      }
      const kinds = CHECK_KINDS.filter((k) => k in input);
      if (kinds.length > 1) {
        return `expected exactly one kind of check, found ${kinds.map((k) => `"${k}"`).join(' and ')}`;
      }
      if (kinds.length === 0) {
        return 'file' in input
          ? 'expected "exists", "contains" or "matches" next to "file"'
          : `expected one of ${CHECK_SHAPES}`;
      }
      return undefined; // one kind: the matching branch reports the details
    },
  })
  .meta({ id: 'Check', description: 'A deterministic check, scored 0 or 1.' });

const limitsSchema = obj({
  time_minutes: minutesField().optional(),
  tokens: posInt('a positive integer number of tokens').optional(),
}).meta({ id: 'Limits' });

/** Minimums a pair must reach (`axis run` exits 1 below any); a scenario's override the settings'. */
const minimums = {
  axis_score: numberBetween(0, 100).optional(),
  goal_achievement: numberBetween(0, 100).optional(),
  environment: numberBetween(0, 100).optional(),
  service: numberBetween(0, 100).optional(),
  agent: numberBetween(0, 100).optional(),
  reliability: numberBetween(0, 1)
    .optional()
    .meta({ description: 'completed ÷ (runs − unscored − cancelled), 0..1' }),
};
const scenarioThresholdsSchema = obj(minimums).meta({ id: 'ScenarioThresholds' });

/**
 * `network`: `"host"` (default), `"loopback"` (the agent runs in its own network namespace where only
 * loopback exists; the simulator, loopback URLs in its environment, HTTP MCP servers on 127.0.0.1 and
 * `ports` are forwarded from the host), or `{ mode, ports }`. See docs/running.md#network.
 */
const portNumber = () => {
  const e = expected('a TCP port from 1 to 65535');
  return z.number(e).int(e).min(1, e).max(65535, e);
};
const NETWORK_MODES = ['host', 'loopback'] as const;
export const networkField = () =>
  z
    .union(
      [
        oneOf(NETWORK_MODES),
        obj({
          mode: oneOf(NETWORK_MODES),
          ports: z.array(portNumber(), expected('an array of TCP ports')).optional().meta({
            description: 'Host 127.0.0.1 ports the agent may reach in loopback mode (local services).',
          }),
        }),
      ],
      unionError('"host", "loopback" or { mode, ports }', (v) => typeof v === 'string' || isPlainObject(v)),
    )
    .meta({
      description:
        '"loopback": the agent sees only loopback; the simulator, local provider URLs, HTTP MCP servers on 127.0.0.1 and `ports` stay reachable (Linux; docs/running.md).',
    });

/** Fields a variant may override. */
const overridable = {
  prompt: nonEmpty('a non-empty prompt').optional(),
  judge: judgeField().optional(),
  rubric: judgeField().optional().meta({ description: 'Legacy alias of judge.' }),
  checks: z.array(checkSchema, expected('an array of checks')).optional(),
  skip: bool().optional(),
  setup: lifecycleList().optional(),
  teardown: lifecycleList().optional(),
  agents: z
    .array(nonEmpty('an agent name or glob'), expected('an array of agent names'))
    .min(1, { error: 'expected at least one agent name, found an empty array' })
    .optional(),
  skills: strArray('a skill source').optional(),
  mcp_servers: mcpServers().optional(),
  limits: limitsSchema.optional(),
  thresholds: scenarioThresholdsSchema.optional(),
  artifacts: strArray('a non-empty glob string', nonEmpty('a non-empty glob')).optional(),
  network: networkField().optional(),
  tape: nonEmpty('a path to a tape file')
    .optional()
    .meta({ description: 'Simulator tape, relative to this file.' }),
};

const variantSchema = obj({
  name: z
    .string(expected('a variant name'))
    .regex(/^[a-zA-Z0-9_-]+$/, expected('a variant name of letters, digits, "_" and "-"')),
  ...overridable,
}).meta({ id: 'ScenarioVariant' });

const scenarioShape = {
  $schema: schemaKey.optional(),
  key: nonEmpty('a scenario key').optional(),
  name: nonEmpty('a scenario name'),
  description: str('a description')
    .optional()
    .meta({ description: 'Shown in reports; not sent to the agent.' }),
  tags: z
    .array(
      z
        .string(expected('a tag'))
        .regex(
          /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/,
          expected('a tag of letters, digits, ".", "_", ":", "/", "-"'),
        ),
      expected('an array of tags'),
    )
    .optional()
    .meta({ description: 'Labels for `axis run -t <tag>` and `axis validate -t <tag>`.' }),
  ...overridable,
  prompt: nonEmpty('a non-empty prompt'),
  variants: z.array(variantSchema, expected('an array of variants')).optional(),
};

export const scenarioSchema = obj(scenarioShape, 'a scenario object').meta({
  id: 'Scenario',
  title: 'AXIS scenario',
});

const inlineScenarioSchema = obj(
  { ...scenarioShape, key: nonEmpty('a scenario key') },
  'a scenario object',
).meta({ id: 'InlineScenario' });

// ---------------------------------------------------------------------------------------------------------
// Config

const scenarioSource = z
  .union(
    [nonEmpty('a path, glob or git URL'), inlineScenarioSchema],
    unionError('a path, glob, git URL or inline scenario', (v) => typeof v === 'string' || isPlainObject(v)),
  )
  .meta({ id: 'ScenarioSource' });

const scenariosField = () =>
  z
    .union(
      [nonEmpty('a path, glob or git URL'), z.array(scenarioSource, expected('an array of sources'))],
      unionError(
        'a path or an array of paths, globs, git URLs and inline scenarios',
        (v) => typeof v === 'string' || Array.isArray(v),
      ),
    )
    .meta({ description: 'Where scenarios come from.', default: './scenarios' });

const envField = () =>
  z
    .union(
      [
        z.array(envName(), expected('an array of variable names')),
        z.record(envName(), str(), expected('an object')),
      ],
      unionError(
        'an array of variable names or an object of NAME: value',
        (v) => typeof v === 'object' && v !== null,
      ),
    )
    .meta({ description: 'Host variables passed to agents (names), or explicit NAME: value pairs.' });

const weightsSchema = obj({
  goal_achievement: nonNegNumber('a weight ≥ 0').optional().meta({ default: 0.4 }),
  environment: nonNegNumber('a weight ≥ 0').optional().meta({ default: 0.2 }),
  service: nonNegNumber('a weight ≥ 0').optional().meta({ default: 0.2 }),
  agent: nonNegNumber('a weight ≥ 0').optional().meta({ default: 0.2 }),
});

export const EVEN_RUNS_REASON =
  'an even sample has no middle run, so the median falls between two runs and the headline belongs to none of them';

const runsField = () => {
  const e = expected('an odd integer from 1 to 19');
  return z
    .number(e)
    .int(e)
    .min(1, e)
    .max(19, e)
    .refine((n) => n % 2 === 1, {
      error: (iss: { input?: unknown }) =>
        `expected an odd number of runs, found ${describeValue(iss.input)}: ${EVEN_RUNS_REASON}`,
    });
};

export const settingsSchema = obj({
  concurrency: posInt().optional().meta({ default: 15 }),
  runs: runsField()
    .optional()
    .meta({ default: 1, description: 'Runs per scenario × agent pair (odd, 1..19).' }),
  scoring_weights: weightsSchema.optional(),
  limits: obj({
    run: limitsSchema.optional(),
    scenario: limitsSchema.optional(),
    api_failures: minutesField().optional().meta({
      default: 3,
      description:
        "Minutes of consecutive failed provider calls (the agent CLI's retries) before a job is stopped with the API cause.",
    }),
  }).optional(),
  thresholds: obj({
    ...minimums,
    baseline_tolerance: nonNegNumber('a number of points ≥ 0').optional().meta({ default: 1 }),
  }).optional(),
  simulate: z
    .union(
      [bool(), obj({ tapes: nonEmpty('a directory path').optional().meta({ default: './tapes' }) })],
      unionError('true, false or { tapes }', (v) => typeof v === 'boolean' || isPlainObject(v)),
    )
    .optional()
    .meta({ default: false }),
  remotes: obj({
    maxDepth: posInt().optional().meta({ default: 1 }),
    trust_code: z
      .union(
        [bool(), z.array(nonEmpty('a git URL'), expected('an array of git URLs'))],
        unionError('true, false or an array of git URLs', (v) => typeof v === 'boolean' || Array.isArray(v)),
      )
      .optional()
      .meta({
        default: false,
        description:
          'Let remote git sources run TypeScript/JavaScript (their config, scenario modules, adapters): true, or the URLs to trust.',
      }),
  }).optional(),
  network: networkField().optional().meta({ default: 'host' }),
  sandbox: oneOf(['none', 'bwrap']).optional().meta({
    default: 'none',
    description:
      '"bwrap": every job process runs under bubblewrap with the host filesystem read-only except the job\'s workspace, home and tmp (Linux; see docs/running.md).',
  }),
}).meta({ id: 'Settings' });

const judgeSchema = obj({
  provider: oneOf(['anthropic', 'openai', 'agent']),
  model: nonEmpty('a model name').optional(),
  base_url: z
    .string(expected('an http(s) URL'))
    .regex(/^https?:\/\/\S+$/, expected('an http(s) URL'))
    .optional(),
  api_key_env: envName().optional(),
  agent: agentEntrySchema.optional(),
  max_retries: nonNegInt()
    .max(100, { error: (iss) => `expected at most 100 retries, found ${describeValue(iss.input)}` })
    .optional()
    .meta({ default: 3 }),
  timeout_seconds: secondsField().optional().meta({ default: 120 }),
}).meta({ id: 'Judge' });

const judgingSchema = obj({ agents: agentList() }).meta({
  description: 'Upstream form; maps to judge.provider "agent".',
});

const adapterPath = () =>
  z
    .string(expected('a module path'))
    .regex(/\.(ts|mts|js|mjs|cjs)$/, expected('a path to a .ts, .mts, .js, .mjs or .cjs module'));

/** `classify`: tool-name glob → the dimension its calls count toward (docs/scoring.md#classification). */
const classifyField = () =>
  z
    .record(
      z.string().regex(/\S/, expected('a non-empty tool-name glob')),
      oneOf(['environment', 'service', 'agent']),
      expected('an object of tool-name glob: "environment", "service" or "agent"'),
    )
    .meta({
      description:
        "Tool-name globs (case-insensitive, first match wins) → category; overrides AXIS's own classification.",
    });

/** Fields a profile may overlay. */
const overlayShape = {
  scenarios: scenariosField().optional(),
  agents: agentList().optional(),
  settings: settingsSchema.optional(),
  env: envField().optional(),
  judge: judgeSchema.optional(),
  mcp_servers: mcpServers().optional(),
  classify: classifyField().optional(),
  skills: strArray('a skill source').optional(),
  artifacts: strArray('a non-empty glob string', nonEmpty('a non-empty glob')).optional(),
};

export const profileSchema = obj(overlayShape, 'a profile object').meta({ id: 'Profile' });

export const configSchema = obj(
  {
    $schema: schemaKey.optional(),
    name: nonEmpty('a name').optional(),
    ...overlayShape,
    agents: agentList(),
    profiles: z
      .record(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
            expected('a profile name of letters, digits, ".", "_", "-"'),
          ),
        profileSchema,
        expected('an object of profile name: overlay'),
      )
      .optional(),
    judging: judgingSchema.optional(),
    adapters: z
      .record(
        z
          .string()
          .regex(
            /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
            expected('an adapter name of letters, digits, ".", "_", "-"'),
          ),
        adapterPath(),
        expected('an object of adapter name: module path'),
      )
      .optional(),
    beforeAll: lifecycleList().optional(),
    afterAll: lifecycleList().optional(),
  },
  'a config object',
).meta({ id: 'AxisConfig', title: 'AXIS configuration' });

export type AxisConfig = z.input<typeof configSchema>;
export type ScenarioConfig = z.input<typeof scenarioSchema>;
export type InlineScenarioConfig = z.input<typeof inlineScenarioSchema>;
export type ScenarioVariantConfig = z.input<typeof variantSchema>;
export type AgentEntry = z.input<typeof agentEntrySchema>;
export type AgentConfig = z.input<typeof agentObjectSchema>;
export type SettingsConfig = z.input<typeof settingsSchema>;
export type ProfileConfig = z.input<typeof profileSchema>;
export type JudgeConfig = z.input<typeof judgeSchema>;
export type McpServerConfig = z.input<typeof mcpServerSchema>;
export type LifecycleActionConfig = z.input<typeof lifecycleActionSchema>;
export type CheckConfig = z.input<typeof checkSchema>;
export type LimitsConfig = z.input<typeof limitsSchema>;

/** The JSON Schemas shipped in `schema/` (regenerated by scripts/gen-schemas.mjs on build). */
export function jsonSchemas(): { config: object; scenario: object } {
  const opts = { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' } as const;
  return {
    config: z.toJSONSchema(configSchema, opts),
    scenario: z.toJSONSchema(scenarioSchema, opts),
  };
}
