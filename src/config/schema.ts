/**
 * The one zod schema behind config validation, the public TypeScript types and the shipped JSON Schemas
 * (scripts/gen-schemas.mjs); a scenario's part of it is in scenario-schema.ts. Only the shape lives
 * here; rules that need several fields or the file system (agent capabilities, weight sums, file
 * existence) are in resolve.ts and scenario-resolve.ts.
 * Defaults are applied when resolving, never here, so a profile overlay can tell "unset" from "default".
 */
import * as z from 'zod';
import {
  ENV_NAME,
  bool,
  minutesField,
  expected,
  isPlainObject,
  nonEmpty,
  nonNegInt,
  nonNegNumber,
  obj,
  oneOf,
  posInt,
  secondsField,
  str,
  strArray,
  strRecord,
  stringOrArray,
  unionError,
} from './schema-helpers.js';
import { describeValue } from '../util/describe-value.js';
import {
  artifactsField,
  checkSchema,
  inlineScenarioSchema,
  lifecycleActionSchema,
  lifecycleList,
  limitsSchema,
  mcpServerSchema,
  mcpServers,
  minimums,
  networkField,
  scenarioSchema,
  schemaKey,
  variantSchema,
} from './scenario-schema.js';

export const SCHEMA_URLS = {
  config: './node_modules/axis-eval/schema/axis.config.schema.json',
  scenario: './node_modules/axis-eval/schema/scenario.schema.json',
} as const;

const envName = () =>
  z
    .string(expected('an environment variable name'))
    .regex(ENV_NAME, expected('an environment variable name (letters, digits, _)'));

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
    // Empty would run nothing with this agent, without a word.
    .min(1, {
      error:
        'expected at least one scenario key or glob ("*" = all, or leave the field out), found an empty array',
    })
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
// Config

const scenarioSource = z
  .union(
    [nonEmpty('a path, glob or git URL'), inlineScenarioSchema],
    unionError('a path, glob, git URL or inline scenario', (v) => typeof v === 'string' || isPlainObject(v)),
  )
  .meta({ id: 'ScenarioSource' });

const scenariosField = () =>
  stringOrArray(
    nonEmpty('a path, glob or git URL'),
    z.array(scenarioSource, expected('an array of sources')),
    'a path or an array of paths, globs, git URLs and inline scenarios',
  ).meta({ description: 'Where scenarios come from.', default: './scenarios' });

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
  return (
    z
      .number(e)
      .int(e)
      .min(1, e)
      .max(19, e)
      // Only a count the checks above accept can be even: one problem per bad value, not two.
      .refine((n) => !Number.isInteger(n) || n < 1 || n > 19 || n % 2 === 1, {
        error: (iss: { input?: unknown }) =>
          `expected an odd number of runs, found ${describeValue(iss.input)}: ${EVEN_RUNS_REASON}`,
      })
  );
};

/**
 * The band's floor in points. Scores are 0-100, so a floor of 100 or more lets every drop pass: a gate
 * that can never fail is refused rather than accepted silently.
 */
const toleranceField = () => {
  const e = expected('points from 0 to below 100 (a tolerance of 100 lets every score drop pass the gate)');
  return z.number(e).min(0, e).lt(100, e);
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
    baseline_tolerance: toleranceField().optional().meta({
      default: 1,
      description: 'Points (0 to below 100) a score may drop against the baseline before it is a regression.',
    }),
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
          'Let remote git sources run TypeScript/JavaScript (their config, scenario modules, adapters): true, or the URLs to trust (a URL with #ref trusts that ref only).',
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
  artifacts: artifactsField().optional(),
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
