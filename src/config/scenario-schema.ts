/**
 * The scenario half of the config schema: a scenario file (or an inline scenario) with its variants,
 * checks, limits and network, and the lifecycle actions and MCP servers a config shares with it.
 * Only the shape lives here, as in schema.ts.
 */
import { posix } from 'node:path';
import * as z from 'zod';
import {
  bool,
  minutesField,
  expected,
  isPlainObject,
  nonEmpty,
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
  stringOrArray,
  unionError,
} from './schema-helpers.js';
import { describeValue } from '../util/describe-value.js';
import { NAME_WITHOUT_CONTROLS } from '../util/safe-text.js';

export const schemaKey = str('a JSON Schema URL or path').describe(
  'JSON Schema reference for editors; ignored by AXIS.',
);

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

/**
 * Whether a copy destination is relative and its `..` never leaves the directory it is resolved in: the
 * runner refuses any other (runner/lifecycle-copy.ts), so validation does too, before any job starts.
 */
function staysInside(destination: string): boolean {
  if (/^[a-zA-Z]:|^[\\/]/.test(destination)) return false;
  const normal = posix.normalize(destination);
  return normal !== '..' && !normal.startsWith('../');
}

const copyAction = obj({
  action: z.literal('copy'),
  match: nonEmpty('a glob relative to the config directory'),
  destination: nonEmpty('a path relative to the workspace').refine(
    staysInside,
    expected('a directory relative to the workspace that stays inside it'),
  ),
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

export const lifecycleList = () => z.array(lifecycleActionSchema, expected('an array of lifecycle actions'));

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
  command: nonEmpty('a command').pipe(refString('a command')),
  args: strArray('a string', refString()).optional(),
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
  .meta({
    id: 'McpServer',
    description: 'command, args, env, url and headers may use ${VAR}, resolved at run time.',
  });

/** Names every CLI keeps as they are: Codex refuses "my docs", the others rewrite such names in tool names. */
const mcpServerName = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]+$/,
    expected(
      'a server name of letters, digits, "_", "-" (agents build tool names from it: mcp__<server>__<tool>)',
    ),
  );

export const mcpServers = () =>
  z.record(mcpServerName, mcpServerSchema, expected('an object of server name: server'));

// ---------------------------------------------------------------------------------------------------------
// Artifacts

/** Capture follows no glob that is absolute or has a `..` segment (runner/artifacts.ts): refuse them here. */
const artifactGlob = () =>
  nonEmpty('a non-empty glob').refine(
    (p) => !/^\/|^[a-zA-Z]:/.test(p) && !p.split('/').includes('..'),
    expected('a glob relative to the workspace, without ".."'),
  );

export const artifactsField = () => strArray('a non-empty glob string', artifactGlob());

// ---------------------------------------------------------------------------------------------------------
// Scenario

const judgeCheck = obj({
  check: nonEmpty('the criterion text'),
  weight: nonNegNumber('a weight ≥ 0').optional(),
}).meta({ id: 'JudgeCheck' });

const judgeField = () =>
  stringOrArray(
    nonEmpty('a criterion'),
    z.array(judgeCheck, expected('an array of judge checks')),
    'a string or an array of { check, weight? }',
  ).meta({ description: 'LLM-judged success criteria.' });

const relativeFile = () =>
  nonEmpty('a path relative to the workspace').superRefine((value, ctx) => {
    if (value.includes('\0')) {
      const message = `expected a file path without NUL characters, found ${describeValue(value)}`;
      return ctx.addIssue({ code: 'custom', message });
    }
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
  // A process exits with one byte (a signal shows as 128 + n): any other value could never be met.
  expect_exit: z
    .number(expected('an integer exit code'))
    .int(expected('an integer exit code'))
    .min(0, expected('an exit code from 0 to 255'))
    .max(255, expected('an exit code from 0 to 255'))
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
      // The request's final answer is what the check sees: a 1xx one is interim and never final.
      .min(200, expected('a final HTTP status code (200 to 599: a 1xx answer is interim)'))
      .max(599, expected('an HTTP status code'))
      .optional()
      .meta({ default: 200 }),
    method: oneOf(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      .optional()
      .meta({ default: 'GET' }),
    contains: str().optional(),
  }).superRefine(bodyless),
  ...checkCommon,
}).meta({ id: 'HttpCheck', description: 'Request a URL after the run and compare status and body.' });

/** `contains` where HTTP sends no body (HEAD, 204, 304) could never pass: say so at validation. */
function bodyless(h: { method?: string; status?: number; contains?: string }, ctx: z.RefinementCtx): void {
  if (h.contains === undefined) return;
  const why =
    h.method === 'HEAD'
      ? 'a response to HEAD has no body; use "method": "GET", or drop "contains"'
      : h.status === 204 || h.status === 304
        ? `a ${h.status} response has no body; expect another status, or drop "contains"`
        : undefined;
  if (why) ctx.addIssue({ code: 'custom', path: ['contains'], message: `can never match: ${why}` });
}

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

export const limitsSchema = obj({
  time_minutes: minutesField().optional(),
  tokens: posInt('a positive integer number of tokens').optional(),
}).meta({ id: 'Limits' });

/** Minimums a pair must reach (`axis run` exits 1 below any); a scenario's override the settings'. */
/**
 * A score minimum, in points. A share of 1 (0.8) is refused: `reliability` beside it is written that way,
 * and a minimum of 0.8 points would gate on next to nothing.
 */
const pointsMinimum = () =>
  numberBetween(0, 100).refine((v) => !(v > 0 && v < 1), {
    error: (iss) => {
      const v = iss.input as number;
      return `expected points from 0 to 100 (${+(v * 100).toFixed(4)} for ${+(v * 100).toFixed(4)}%), found ${v}`;
    },
  });

export const minimums = {
  axis_score: pointsMinimum().optional(),
  goal_achievement: pointsMinimum().optional(),
  environment: pointsMinimum().optional(),
  service: pointsMinimum().optional(),
  agent: pointsMinimum().optional(),
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
  artifacts: artifactsField().optional(),
  network: networkField().optional(),
  tape: nonEmpty('a path to a tape file')
    .optional()
    .meta({ description: 'Simulator tape, relative to this file.' }),
};

export const variantSchema = obj({
  name: z
    .string(expected('a variant name'))
    .regex(/^[a-zA-Z0-9_-]+$/, expected('a variant name of letters, digits, "_" and "-"')),
  ...overridable,
}).meta({ id: 'ScenarioVariant' });

// Shown in terminals and reports, where an escape sequence would retitle or clear the screen.
const shownText = (what: string) =>
  nonEmpty(what).regex(NAME_WITHOUT_CONTROLS, expected(`${what} without control characters`));

const scenarioShape = {
  $schema: schemaKey.optional(),
  key: shownText('a scenario key').optional(),
  name: shownText('a scenario name'),
  description: str('a description').optional().meta({
    description: 'Notes for readers of the file (and `axis validate --json`); not sent to the agent.',
  }),
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
  // A template runs only its variants: with none, nothing (or, before, the base) would run.
  variants: z
    .array(variantSchema, expected('an array of variants'))
    .min(1, {
      error:
        'expected at least one variant, found an empty array (remove "variants" to run the scenario itself)',
    })
    .optional(),
};

export const scenarioSchema = obj(scenarioShape, 'a scenario object').meta({
  id: 'Scenario',
  title: 'AXIS scenario',
});

export const inlineScenarioSchema = obj(
  { ...scenarioShape, key: shownText('a scenario key') },
  'a scenario object',
).meta({ id: 'InlineScenario' });
