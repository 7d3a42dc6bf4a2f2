/**
 * The types of the report.json fields AXIS's readers use, checked when a report is read so a hand-edited
 * or damaged file is an error naming the field (`results[0].score.axisScore: expected a number from 0 to
 * 100, found "abc"`) instead of a crash, `NaN` or `Infinity` further down. Lenient where the published
 * schema (schema.ts) is strict: unknown fields and most absent ones pass, so reports of other AXIS
 * versions still read; zod is not used, as loading it would double `axis reports`' start-up time.
 */
import { describeValue } from '../util/describe-value.js';

type Leaf = 'string' | 'boolean' | 'number' | 'ms' | 'count' | 'score' | 'unit' | 'grade';
export type Shape =
  | Leaf
  | { nullable: Shape }
  | { array: Shape; what?: string }
  | { object: Record<string, Shape>; required?: readonly string[]; what?: string }
  /** By the value of `tag` (an event's `kind`); a value not listed (a newer AXIS's) passes. */
  | { tag: string; cases: Record<string, Shape> };

const LEAVES: Record<Leaf, [(v: unknown) => boolean, string]> = {
  string: [(v) => typeof v === 'string', 'a string'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  number: [(v) => typeof v === 'number' && Number.isFinite(v), 'a finite number'],
  ms: [(v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'a finite number ≥ 0'],
  count: [(v) => Number.isSafeInteger(v) && (v as number) >= 0, 'a whole number ≥ 0'],
  score: [(v) => typeof v === 'number' && v >= 0 && v <= 100, 'a number from 0 to 100'],
  unit: [(v) => typeof v === 'number' && v >= 0 && v <= 1, 'a number from 0 to 1'],
  grade: [(v) => typeof v === 'number' && v >= 0 && v <= 10, 'a number from 0 to 10'],
};

/** `path: expected …, found …` for the first field of `value` that does not fit `shape`; undefined when all do. */
export function shapeProblem(value: unknown, shape: Shape, path: string): string | undefined {
  const p = checkerOf(shape)(value);
  return p && `${path}${p.at}: ${p.message}`;
}

/** What does not fit, and where below the value checked (`.results[0].score`), built only on failure. */
interface Problem {
  at: string;
  message: string;
}
type Check = (v: unknown) => Problem | undefined;

const found = (what: string, v: unknown): Problem => ({
  at: '',
  message: `expected ${what}, found ${describeValue(v)}`,
});
const under = (at: string, p: Problem): Problem => ({ at: `${at}${p.at}`, message: p.message });

const LEAF_CHECKS = Object.fromEntries(
  Object.entries(LEAVES).map(([leaf, [ok, what]]) => [
    leaf,
    (v: unknown) => (ok(v) ? undefined : found(what, v)),
  ]),
) as Record<Leaf, Check>;

/**
 * Each shape compiled once into a check (its fields listed once, not per object checked): a long run's
 * report holds tens of thousands of audits and events.
 */
const compiled = new WeakMap<object, Check>();

function checkerOf(shape: Shape): Check {
  if (typeof shape === 'string') return LEAF_CHECKS[shape];
  let check = compiled.get(shape);
  if (!check) compiled.set(shape, (check = compile(shape)));
  return check;
}

function compile(shape: Exclude<Shape, Leaf>): Check {
  if ('nullable' in shape) {
    const inner = checkerOf(shape.nullable);
    return (v) => (v === null ? undefined : inner(v));
  }
  if ('tag' in shape) return tagged(shape.tag, shape.cases);
  if ('array' in shape) {
    const item = checkerOf(shape.array);
    const what = shape.what ?? 'an array';
    return (v) => {
      if (!Array.isArray(v)) return found(what, v);
      for (let i = 0; i < v.length; i++) {
        const p = item(v[i]);
        if (p) return under(`[${i}]`, p);
      }
      return undefined;
    };
  }
  const fields = Object.entries(shape.object).map(([key, field]) => [key, checkerOf(field)] as const);
  const required = shape.required ?? [];
  const what = shape.what ?? 'an object';
  return (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return found(what, v);
    const o = v as Record<string, unknown>;
    for (const key of required)
      if (o[key] === undefined) return { at: `.${key}`, message: 'missing (expected by every AXIS report)' };
    for (const [key, check] of fields) {
      const field = o[key];
      if (field === undefined) continue;
      const p = check(field);
      if (p) return under(`.${key}`, p);
    }
    return undefined;
  };
}

function tagged(tag: string, cases: Record<string, Shape>): Check {
  const checks = new Map(Object.entries(cases).map(([value, c]) => [value, checkerOf(c)]));
  return (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return found('an object', v);
    const value = (v as Record<string, unknown>)[tag];
    if (typeof value !== 'string') return under(`.${tag}`, found('a string', value));
    return checks.get(value)?.(v);
  };
}

const str: Shape = 'string';
const strings: Shape = { array: str };
const nScore: Shape = { nullable: 'score' };
const tokens: Shape = {
  object: { input: 'count', output: 'count', cacheReadInput: 'count', cacheWriteInput: 'count' },
  required: ['input', 'output', 'cacheReadInput'],
};
const judgeTokens: Shape = { object: { input: 'count', output: 'count' }, required: ['input', 'output'] };
const fourScores: Shape = {
  object: { goalAchievement: nScore, environment: nScore, service: nScore, agent: nScore },
};
const FOUR = ['goal_achievement', 'environment', 'service', 'agent'] as const;
const weights: Shape = { object: Object.fromEntries(FOUR.map((k) => [k, 'unit'])), required: FOUR };
const SUB = ['success', 'speed', 'weight', 'relevance', 'necessity'] as const;
// A score that is there is whole: every view draws each of these, and a gap would read as NaN or a crash.
const dimension: Shape = {
  object: {
    score: nScore,
    notApplicable: 'boolean',
    unscoredReason: str,
    raw: { nullable: 'unit' },
    dimensions: { object: Object.fromEntries(SUB.map((k) => [k, nScore])), required: SUB },
    audits: { array: { object: { interactionId: 'number', category: str, rationale: str } } },
    interactionCount: 'count',
    auditedCount: 'count',
    judgedCount: 'count',
  },
  required: ['score', 'dimensions', 'audits', 'interactionCount', 'auditedCount'],
};
const goal: Shape = {
  object: {
    score: nScore,
    notApplicable: 'boolean',
    unscoredReason: str,
    criteria: {
      array: {
        object: { check: str, weight: 'unit', score: { nullable: 'grade' }, rationale: str, kind: str },
        required: ['check', 'weight', 'score'],
      },
    },
  },
  required: ['score', 'criteria'],
};
const ids: Shape = { array: 'number' };
const runScore: Shape = {
  object: {
    status: str,
    reason: str,
    axisScore: nScore,
    goalAchievement: goal,
    environment: dimension,
    service: dimension,
    agent: dimension,
    weights,
    configuredWeights: weights,
    notApplicable: strings,
    patterns: { array: { object: { kind: str, description: str, interactionIds: ids } } },
    necessity: {
      nullable: {
        object: { score: 'unit', rationale: str, unnecessaryIds: ids },
        required: ['unnecessaryIds'],
      },
    },
    interactions: {
      array: { object: { id: 'number', categories: strings }, required: ['id', 'categories'] },
    },
    judge: {
      nullable: {
        object: {
          tokens: judgeTokens,
          costUsd: 'ms',
          simulated: 'boolean',
          model: str,
          label: str,
          calls: 'count',
        },
        required: ['label'],
      },
    },
  },
  required: ['status', 'axisScore', 'goalAchievement', 'environment', 'service', 'agent'],
};
// The scenario view and report.html draw each dimension's weight; report.json's readers draw none.
const detailScore: Shape = { ...runScore, required: [...runScore.required!, 'weights'] };
const outcome = {
  status: str,
  reason: str,
  errorClass: str,
  durationMs: 'ms',
  exitCode: { nullable: 'number' },
  tokenUsage: tokens,
  costUsd: 'ms',
} satisfies Record<string, Shape>;
const runSummary: Shape = {
  required: ['run', 'status', 'durationMs', 'tokenUsage'],
  object: {
    run: 'count',
    ...outcome,
    timings: { object: { setupMs: 'ms', agentMs: 'ms', afterAgentMs: 'ms', teardownMs: 'ms' } },
    rawLineCount: 'count',
    artifactCount: 'count',
    files: {
      object: { detail: str, raw: str, artifactsDir: str, debug: str, debugStderr: str, missing: strings },
      what: 'an object of paths',
    },
    axisScore: nScore,
    scoreStatus: str,
    dimensionScores: fourScores,
  },
};
const count4 = { total: 'count', scored: 'count', unscored: 'count', failed: 'count' } as const;

/** The gate's verdict, as `axis reports` draws it. */
const verdict: Shape = {
  object: {
    pass: 'boolean',
    baseline: { nullable: { object: { name: str, tolerance: 'ms' }, required: ['name'] } },
    thresholds: { nullable: { object: { source: str, metrics: strings }, required: ['source', 'metrics'] } },
    pairs: {
      array: {
        object: {
          scenarioKey: str,
          agent: str,
          failures: { array: { object: { kind: str, message: str }, required: ['message'] } },
        },
        required: ['scenarioKey', 'agent', 'failures'],
      },
    },
    incomplete: str,
    unscored: str,
  },
  required: ['pass', 'pairs'],
};

/** report.json as AXIS's readers use it (`results[].scenarioKey` and `agentName` are checked before). */
export const MANIFEST_SHAPE: Shape = {
  object: {
    version: str,
    name: str,
    timestamp: str,
    updatedAt: str,
    durationMs: 'ms',
    incomplete: 'boolean',
    incompleteReason: str,
    config: str,
    profile: str,
    rerunOf: str,
    verdict,
    settings: { object: { concurrency: 'count', runs: 'count', simulate: 'boolean' } },
    summary: {
      object: {
        total: 'count',
        completed: 'count',
        failed: 'count',
        cancelled: 'count',
        runsTotal: 'count',
        runsFailed: 'count',
        runsCancelled: 'count',
        skipped: 'count',
        averageAxisScore: nScore,
        scores: {
          object: {
            ...count4,
            runs: {
              object: { ...count4, cancelled: 'count' },
              required: [...Object.keys(count4), 'cancelled'],
            },
            reliability: { nullable: 'unit' },
            averageAxisScore: nScore,
            averages: fourScores,
            judge: {
              object: {
                runs: 'count',
                calls: 'count',
                requests: 'count',
                cached: 'count',
                tokens: judgeTokens,
                costUsd: 'ms',
                runsWithoutCost: 'count',
                inputChars: 'count',
                judges: strings,
                warnings: strings,
              },
              required: ['tokens', 'judges'],
            },
          },
        },
      },
    },
    results: {
      array: {
        object: {
          scenarioName: str,
          variant: str,
          agent: str,
          model: str,
          ...outcome,
          representativeRun: 'count',
          runsCompleted: 'count',
          runsFailed: 'count',
          runsCancelled: 'count',
          runs: { array: runSummary, what: 'an array of runs' },
          score: runScore,
          spread: {
            object: {
              ...count4,
              runs: 'count',
              cancelled: 'count',
              median: nScore,
              min: nScore,
              max: nScore,
              sigma: { nullable: 'ms' },
              reliability: { nullable: 'unit' },
            },
          },
        },
      },
    },
  },
};

const said = (field: string): Shape => ({ object: { [field]: str }, required: [field] });
/** A transcript event: the fields its kind draws in the scenario view and report.html. */
const event: Shape = {
  tag: 'kind',
  cases: {
    user: said('text'),
    text: said('text'),
    thinking: said('text'),
    tool_call: { object: { id: str, name: str }, required: ['id', 'name'] },
    tool_result: {
      object: { callId: str, output: str, isError: 'boolean' },
      required: ['callId', 'output', 'isError'],
    },
    error: said('message'),
    system: said('subtype'),
  },
};
const simEvent: Shape = { object: { type: str, message: str }, required: ['type', 'message'] };

/** A per-run detail file as the scenario view and report.html use it. */
export const DETAIL_SHAPE: Shape = {
  object: {
    scenarioKey: str,
    scenarioName: str,
    agentName: str,
    run: 'count',
    runs: 'count',
    prompt: str,
    criteria: { array: { object: { kind: str, label: str, weight: 'unit' } } },
    ...outcome,
    startedAt: str,
    endedAt: str,
    transcript: {
      object: { events: { array: event }, result: { nullable: str }, usage: tokens, costUsd: 'ms' },
      required: ['events'],
    },
    rawLineCount: 'count',
    setupNotes: str,
    teardownNotes: str,
    teardownError: str,
    afterAgentError: str,
    artifacts: { array: { object: { path: str, size: 'count', mimeType: str, skipped: str } } },
    checks: { array: { object: { label: str, passed: 'boolean', rationale: str } } },
    simulator: {
      object: { requests: 'count', events: { array: simEvent }, tape: str },
      required: ['events', 'tape'],
    },
    score: detailScore,
  },
};

/** What the history (history-read.ts) reads of a report.json, or of its trend cache entry. */
export const HISTORY_SHAPE: Shape = {
  object: {
    timestamp: str,
    summary: { object: { averageAxisScore: nScore } },
    shard: { object: { index: 'count', total: 'count' } },
    results: {
      array: { object: { status: str, score: { nullable: { object: { status: str, axisScore: nScore } } } } },
    },
  },
};
