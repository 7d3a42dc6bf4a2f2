/**
 * The report file formats as zod schemas: `report.json` (the manifest) and the per-run detail file
 * (`scenarios/<key>/<agent>.json`). They mirror the TypeScript types the store and the scoring stage
 * write (test/unit/report/schema.test.ts checks both directions at compile time) and are published as
 * JSON Schemas in schema/ by scripts/gen-schemas.mjs. Objects are strict: a field the writers add
 * without adding it here fails the tests, so the published schema cannot drift from the files. A run's
 * score and the pieces both files share are in score-schema.ts.
 */
import * as z from 'zod';
import {
  count,
  errorClass,
  jobStatus,
  judgeTokens,
  runFiles,
  runScoreSchema,
  score100,
  timings,
  tokenUsage,
  unit,
} from './score-schema.js';
import { verdictSchema } from './verdict-schema.js';

// ---------------------------------------------------------------------------------------------
// report.json

/** How a run ended, and what it cost: in each run's summary and, for its representative run, the pair's entry. */
const runOutcome = {
  status: jobStatus,
  reason: z.string().optional(),
  errorClass: errorClass.optional(),
  durationMs: z.number().min(0),
  exitCode: z.number().int().nullable(),
  tokenUsage,
  costUsd: z.number().min(0).optional(),
};

const runSummary = z.strictObject({
  run: z.number().int().min(1),
  ...runOutcome,
  timings,
  rawLineCount: count,
  artifactCount: count,
  simulatorEvents: count.optional(),
  files: runFiles.optional(),
  axisScore: score100.nullable().optional(),
  scoreStatus: z.enum(['scored', 'unscored', 'failed']).optional(),
  dimensionScores: z
    .strictObject({
      goalAchievement: score100.nullable(),
      environment: score100.nullable(),
      service: score100.nullable(),
      agent: score100.nullable(),
    })
    .optional(),
});

const scoreSpread = z.strictObject({
  runs: count,
  scored: count,
  unscored: count,
  failed: count,
  cancelled: count,
  median: score100.nullable(),
  min: score100.nullable(),
  max: score100.nullable(),
  sigma: z.number().min(0).nullable(),
  reliability: unit.nullable(),
});

const resultEntry = z.strictObject({
  scenarioKey: z.string(),
  scenarioName: z.string(),
  variant: z.string().optional(),
  agentName: z.string(),
  agent: z.string(),
  model: z.string().optional(),
  ...runOutcome,
  simulated: z.literal(true).optional(),
  representativeRun: z.number().int().min(1),
  runsCompleted: count,
  runsFailed: count,
  runsCancelled: count.optional(),
  runs: z.array(runSummary),
  score: runScoreSchema.optional(),
  spread: scoreSpread.optional(),
});

const dimensionAverages = z.strictObject({
  goalAchievement: score100.nullable(),
  environment: score100.nullable(),
  service: score100.nullable(),
  agent: score100.nullable(),
});

const scoredSummary = z.strictObject({
  total: count,
  scored: count,
  unscored: count,
  failed: count,
  runs: z.strictObject({ total: count, scored: count, unscored: count, failed: count, cancelled: count }),
  reliability: unit.nullable(),
  averageAxisScore: score100.nullable(),
  averages: dimensionAverages,
  judge: z.strictObject({
    runs: count,
    calls: count,
    requests: count,
    cached: count,
    tokens: judgeTokens,
    costUsd: z.number().min(0).optional(),
    runsWithoutCost: count.optional(),
    inputChars: count,
    judges: z.array(z.string()),
    warnings: z.array(z.string()).optional(),
  }),
});

const hookRecord = z.strictObject({
  ok: z.boolean(),
  error: z.string().optional(),
  notes: z.string().optional(),
});

export const reportManifestSchema = z
  .strictObject({
    version: z.string(),
    reportId: z.string(),
    name: z.string().optional(),
    timestamp: z.string(),
    updatedAt: z.string(),
    durationMs: z.number().min(0),
    incomplete: z.literal(true).optional(),
    incompleteReason: z.string().optional(),
    config: z.string(),
    profile: z.string().optional(),
    settings: z.strictObject({
      concurrency: z.number().int().min(1),
      runs: z.number().int().min(1),
      simulate: z.boolean(),
    }),
    summary: z.strictObject({
      total: count,
      completed: count,
      failed: count,
      cancelled: count.optional(),
      runsTotal: count,
      runsFailed: count,
      runsCancelled: count.optional(),
      skipped: count,
      averageAxisScore: score100.nullable().optional(),
      scores: scoredSummary.optional(),
    }),
    results: z.array(resultEntry),
    skippedScenarios: z.array(z.string()).optional(),
    hooks: z.strictObject({ beforeAll: hookRecord.optional(), afterAll: hookRecord.optional() }).optional(),
    rerunOf: z.string().optional(),
    shard: z.strictObject({ index: z.number().int().min(1), total: z.number().int().min(1) }).optional(),
    merged: z
      .strictObject({
        configHash: z.string(),
        total: z.number().int().min(1),
        shards: z.array(
          z.strictObject({ index: z.number().int().min(1), reportId: z.string(), blob: z.string() }),
        ),
        missing: z.array(z.number().int().min(1)).optional(),
      })
      .optional(),
    verdict: verdictSchema.optional(),
  })
  .meta({
    title: 'AXIS report.json',
    description: 'The manifest of one AXIS run: .axis/reports/<reportId>/report.json',
  });

// ---------------------------------------------------------------------------------------------
// Per-run detail file

const eventBase = {
  ts: z.number().optional(),
  tsSource: z.enum(['agent', 'received']).optional(),
};

const transcriptEvent = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user'), text: z.string(), ...eventBase }),
  z.strictObject({
    kind: z.literal('text'),
    text: z.string(),
    messageId: z.string().optional(),
    ...eventBase,
  }),
  z.strictObject({
    kind: z.literal('thinking'),
    text: z.string(),
    messageId: z.string().optional(),
    ...eventBase,
  }),
  z.strictObject({
    kind: z.literal('tool_call'),
    id: z.string(),
    name: z.string(),
    input: z.unknown(),
    messageId: z.string().optional(),
    toolKind: z.string().optional(),
    ...eventBase,
  }),
  z.strictObject({
    kind: z.literal('tool_result'),
    callId: z.string(),
    output: z.string(),
    isError: z.boolean(),
    exitCode: z.number().int().optional(),
    httpStatus: z.number().int().optional(),
    permissionDenied: z.boolean().optional(),
    ...eventBase,
  }),
  z.strictObject({
    kind: z.literal('error'),
    message: z.string(),
    errorClass: errorClass.optional(),
    httpStatus: z.number().int().optional(),
    ...eventBase,
  }),
  z.strictObject({
    kind: z.literal('system'),
    subtype: z.string(),
    data: z.record(z.string(), z.unknown()).optional(),
    ...eventBase,
  }),
]);

const transcript = z.strictObject({
  agent: z.string(),
  events: z.array(transcriptEvent),
  result: z.string().nullable(),
  usage: tokenUsage,
  costUsd: z.number().min(0).optional(),
  sessionId: z.string().optional(),
  model: z.string().optional(),
  agentDurationMs: z.number().min(0).optional(),
  error: z
    .strictObject({ class: errorClass, message: z.string(), httpStatus: z.number().int().optional() })
    .optional(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable().optional(),
  startedAt: z.number(),
  endedAt: z.number(),
  durationMs: z.number().min(0),
});

const check = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('run'), run: z.string(), expect_exit: z.number().int() }),
  z.strictObject({ kind: z.literal('file_exists'), file: z.string(), exists: z.boolean() }),
  z.strictObject({ kind: z.literal('file_contains'), file: z.string(), contains: z.string() }),
  z.strictObject({ kind: z.literal('file_matches'), file: z.string(), matches: z.string() }),
  z.strictObject({ kind: z.literal('result_matches'), result_matches: z.string() }),
  z.strictObject({
    kind: z.literal('http'),
    http: z.strictObject({
      url: z.string(),
      status: z.number().int(),
      method: z.string(),
      contains: z.string().optional(),
    }),
  }),
]);

const criterion = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('judge'),
    index: count,
    label: z.string(),
    weight: unit,
    check: z.string(),
  }),
  z.strictObject({ kind: z.literal('check'), index: count, label: z.string(), weight: unit, check }),
]);

const checkOutcome = z.strictObject({
  index: count,
  label: z.string(),
  weight: unit,
  kind: z.enum(['run', 'file_exists', 'file_contains', 'file_matches', 'result_matches', 'http']),
  passed: z.boolean(),
  score: z.union([z.literal(10), z.literal(0)]),
  rationale: z.string(),
  durationMs: z.number().min(0),
});

/** The agent entry as run (`env` values of secret-looking names are `[REDACTED]`). */
const agentSnapshot = z.strictObject({
  name: z.string(),
  agent: z.string(),
  model: z.string().optional(),
  flags: z.record(z.string(), z.union([z.string(), z.boolean()])),
  env: z.record(z.string(), z.string()),
  scenarios: z.array(z.string()).optional(),
  skills: z.array(z.string()),
  command: z.string().optional(),
  args: z.array(z.string()),
  preset: z.string().optional(),
  prompt_via: z.enum(['stdin', 'arg']).optional(),
  output: z.enum(['ndjson', 'text']).optional(),
  module: z.string().optional(),
});

const artifact = z.strictObject({
  path: z.string(),
  size: count,
  mimeType: z.string(),
  skipped: z.string().optional(),
});

const simEvent = z.strictObject({
  time: z.string(),
  type: z.enum([
    'tape_exhausted',
    'tool_not_offered',
    'fault_injected',
    'divergence',
    'path_unresolved',
    'bad_request',
    'not_found',
  ]),
  message: z.string(),
  request: z.number().int().optional(),
  turn: z.number().int().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const runDetailSchema = z
  .strictObject({
    reportId: z.string(),
    index: count,
    scenarioKey: z.string(),
    scenarioBaseKey: z.string(),
    scenarioName: z.string(),
    variant: z.string().optional(),
    scenarioFile: z.string().optional(),
    agentName: z.string(),
    agent: agentSnapshot,
    run: z.number().int().min(1),
    runs: z.number().int().min(1),
    prompt: z.string(),
    criteria: z.array(criterion),
    limits: z.strictObject({ time_minutes: z.number().min(0), tokens: count.optional() }),
    status: jobStatus,
    reason: z.string().optional(),
    errorClass: errorClass.optional(),
    startedAt: z.string(),
    endedAt: z.string(),
    durationMs: z.number().min(0),
    timings,
    transcript,
    rawLineCount: count,
    setupNotes: z.string().optional(),
    teardownNotes: z.string().optional(),
    teardownError: z.string().optional(),
    afterAgentError: z.string().optional(),
    artifacts: z.array(artifact),
    simulator: z.strictObject({ requests: count, events: z.array(simEvent), tape: z.string() }).optional(),
    simulated: z.literal(true).optional(),
    files: runFiles.optional(),
    checks: z.array(checkOutcome).optional(),
    score: runScoreSchema.optional(),
  })
  .meta({
    title: 'AXIS per-run detail',
    description:
      'One run of one (scenario, agent) pair: .axis/reports/<reportId>/scenarios/<scenarioKey>/<agent>.json',
  });

export type ReportManifestFile = z.infer<typeof reportManifestSchema>;
export type RunDetailFile = z.infer<typeof runDetailSchema>;

/** The JSON Schemas shipped in schema/ (scripts/gen-schemas.mjs). */
export function reportJsonSchemas(): { report: object; run: object } {
  const opts = { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' } as const;
  return {
    report: z.toJSONSchema(reportManifestSchema, opts),
    run: z.toJSONSchema(runDetailSchema, opts),
  };
}
