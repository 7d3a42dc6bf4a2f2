// The job plan: which scenario × agent × run pairs `axis run` executes.
export { planJobs, type Job, type Plan, type PlanFilters } from './plan.js';
export { matchesName, splitList } from '../util/name-filter.js';
export {
  parseShard,
  selectShard,
  splitJobs,
  weighJobs,
  jobKeyString,
  jobKeyText,
  compareJobKeys,
  type JobKey,
  type JobDurations,
  type ShardSpec,
  type ShardSelection,
} from './shard.js';
export { configFingerprint } from './fingerprint.js';
