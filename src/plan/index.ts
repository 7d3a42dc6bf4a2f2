// The job plan: which scenario × agent × run pairs `axis run` executes.
export { planJobs, type Job, type Plan, type PlanFilters } from './plan.js';
export { matchesName, splitList } from './filter.js';
