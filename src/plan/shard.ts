/**
 * `--shard k/n`: which jobs of the plan this machine runs. Pure and deterministic: every machine that
 * builds the same plan (and is given the same durations) computes the same split, whatever its locale,
 * file-system order or the order the jobs arrive in. The n shards together hold every job exactly once.
 */
import { createHash } from 'node:crypto';
import { AxisError } from '../util/errors.js';
import type { Job, Plan } from './plan.js';

/** 1-based shard `index` of `total`. */
export interface ShardSpec {
  index: number;
  total: number;
}

/** The identity of one job across machines: its pair and run number. */
export interface JobKey {
  scenarioKey: string;
  agentName: string;
  run: number;
}

/** Shard counts above this are refused: more machines than that is a scheduler, not a CI matrix. */
export const MAX_SHARDS = 1000;

/** `"2/3"` → `{ index: 2, total: 3 }`. Throws AxisError (exit 2) naming the flag and what it expected. */
export function parseShard(value: unknown, source = '--shard'): ShardSpec {
  const found = typeof value === 'string' ? JSON.stringify(value) : String(value);
  const m = typeof value === 'string' ? /^\s*(\d{1,4})\s*\/\s*(\d{1,4})\s*$/.exec(value) : null;
  const expected = `expected <k>/<n> with whole numbers 1 ≤ k ≤ n ≤ ${MAX_SHARDS} (e.g. 2/3)`;
  if (!m) throw new AxisError(`${source}: ${expected}, found ${found}`, { exitCode: 2 });
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || total > MAX_SHARDS || index < 1 || index > total)
    throw new AxisError(`${source}: ${expected}, found ${found}`, { exitCode: 2 });
  return { index, total };
}

export function jobKeyOf(job: Pick<Job, 'scenario' | 'agent' | 'run'>): JobKey {
  return { scenarioKey: job.scenario.key, agentName: job.agent.name, run: job.run };
}

/** One string per job, for maps and sets (NUL cannot occur in a key or a name). */
export function jobKeyString(k: JobKey): string {
  return `${k.scenarioKey}\u0000${k.agentName}\u0000${k.run}`;
}

/** `cms/post · claude-code · run 2`, for messages. */
export function jobKeyText(k: JobKey): string {
  return `${k.scenarioKey} · ${k.agentName} · run ${k.run}`;
}

/** UTF-16 code-unit order: the same on every machine (never `localeCompare`, which follows the locale). */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareJobKeys(a: JobKey, b: JobKey): number {
  return compareText(a.scenarioKey, b.scenarioKey) || compareText(a.agentName, b.agentName) || a.run - b.run;
}

/**
 * Durations of an earlier run, by job key string (ms). A job the map lacks is weighed by the mean of its
 * pair's known runs, else by the median of all known durations; with no durations at all every job
 * weighs 1, and the split balances job counts.
 */
export type JobDurations = ReadonlyMap<string, number>;

export interface WeighedJob {
  key: JobKey;
  /** A positive integer (ms, or 1 without durations), so sums are exact on every machine. */
  weight: number;
}

export function weighJobs(keys: readonly JobKey[], durations: JobDurations = new Map()): WeighedJob[] {
  const pairMeans = new Map<string, { sum: number; n: number }>();
  const known: number[] = [];
  for (const [key, ms] of durations) {
    const [scenarioKey, agentName] = key.split('\u0000');
    const pair = `${scenarioKey}\u0000${agentName}`;
    const p = pairMeans.get(pair) ?? { sum: 0, n: 0 };
    pairMeans.set(pair, { sum: p.sum + ms, n: p.n + 1 });
    known.push(ms);
  }
  const fallback = known.length ? integerWeight(medianOf(known)) : 1;
  return keys.map((key) => {
    const exact = durations.get(jobKeyString(key));
    if (exact !== undefined) return { key, weight: integerWeight(exact) };
    const p = pairMeans.get(`${key.scenarioKey}\u0000${key.agentName}`);
    return { key, weight: p ? integerWeight(p.sum / p.n) : fallback };
  });
}

function integerWeight(ms: number): number {
  return Number.isFinite(ms) ? Math.max(1, Math.round(ms)) : 1;
}

function medianOf(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Greedy longest-processing-time split: heaviest job first (ties in key order), each to the shard with
 * the least total weight so far (ties: fewer jobs, then the lower shard). With equal weights this deals
 * the jobs out in key order, so shard sizes differ by at most one. Returns the 1-based shard of every
 * job, by job key string.
 */
export function splitJobs(jobs: readonly WeighedJob[], total: number): Map<string, number> {
  const order = [...jobs].sort((a, b) => b.weight - a.weight || compareJobKeys(a.key, b.key));
  const load = Array.from({ length: total }, () => ({ weight: 0, jobs: 0 }));
  const out = new Map<string, number>();
  for (const job of order) {
    const key = jobKeyString(job.key);
    if (out.has(key)) throw new Error(`duplicate job in the plan: ${jobKeyText(job.key)}`);
    let best = 0;
    for (let i = 1; i < total; i++) {
      const a = load[i]!;
      const b = load[best]!;
      if (a.weight < b.weight || (a.weight === b.weight && a.jobs < b.jobs)) best = i;
    }
    load[best]!.weight += job.weight;
    load[best]!.jobs += 1;
    out.set(key, best + 1);
  }
  return out;
}

/** A short fingerprint of a split: shards built from different durations (or plans) never match. */
export function splitHash(assignment: ReadonlyMap<string, number>, total: number): string {
  const rows = [...assignment].sort((a, b) => compareText(a[0], b[0]));
  return createHash('sha256')
    .update(JSON.stringify([total, rows]))
    .digest('hex')
    .slice(0, 16);
}

export interface ShardSelection {
  /** The plan restricted to this shard, re-indexed from 0 (in plan order). */
  plan: Plan;
  spec: ShardSpec;
  /** Jobs of the whole plan, before the split. */
  planJobs: number;
  /** This shard's jobs with their position in the whole plan, in plan order. */
  jobs: (JobKey & { index: number })[];
  splitHash: string;
  /** The split was weighed by durations (false: by job count). */
  weighted: boolean;
}

/** Restricts `plan` to shard `spec`. A shard may be empty when there are more shards than jobs. */
export function selectShard(
  plan: Plan,
  spec: ShardSpec,
  durations: JobDurations = new Map(),
): ShardSelection {
  const keys = plan.jobs.map(jobKeyOf);
  const assignment = splitJobs(weighJobs(keys, durations), spec.total);
  const mine = plan.jobs.filter((_, i) => assignment.get(jobKeyString(keys[i]!)) === spec.index);
  const jobs = mine.map((j, index) => ({ ...j, index }));
  return {
    plan: {
      ...plan,
      jobs,
      scenarios: plan.scenarios.filter((s) => jobs.some((j) => j.scenario === s)),
      agents: plan.agents.filter((a) => jobs.some((j) => j.agent === a)),
    },
    spec,
    planJobs: plan.jobs.length,
    jobs: mine.map((j) => ({ ...jobKeyOf(j), index: j.index })),
    splitHash: splitHash(assignment, spec.total),
    weighted: durations.size > 0,
  };
}
