/**
 * The job matrix: scenario × agent × run, after every filter (CLI filters, each agent's `scenarios`,
 * each scenario's `agents`, `skip`). Pure: data in, plan out.
 */
import type { ResolvedAgent, ResolvedConfig, ResolvedScenario } from '../config/types.js';
import { AxisError } from '../util/errors.js';
import { matchesName, splitList } from '../util/name-filter.js';

export interface Job {
  /** 0-based position in the plan. */
  index: number;
  scenario: ResolvedScenario;
  agent: ResolvedAgent;
  /** 1-based run number, up to `runs`. */
  run: number;
  runs: number;
}

export interface Plan {
  /** Ordered: scenarios by key × agents in config order × run. */
  jobs: Job[];
  /** Scenarios with at least one job, in key order. */
  scenarios: ResolvedScenario[];
  /** Agents with at least one job, in config order. */
  agents: ResolvedAgent[];
  /** Scenarios selected by the filters but marked `skip`. */
  skipped: ResolvedScenario[];
  runs: number;
}

export interface PlanFilters {
  /** Scenario keys or globs; comma-separated strings are split. */
  scenarios?: string | readonly string[];
  /** Agent names or globs; comma-separated strings are split; case-insensitive. */
  agents?: string | readonly string[];
  /** Scenario tags (`-t/--tag`): a scenario is selected when it has any of them. */
  tags?: string | readonly string[];
}

const agentMatches = (pattern: string, a: ResolvedAgent) =>
  matchesName(pattern.toLowerCase(), a.name, a.agent);
const scenarioMatches = (pattern: string, s: ResolvedScenario) => matchesName(pattern, s.key, s.baseKey);

function listOf(values: readonly string[]): string {
  const shown = values.slice(0, 30).join(', ');
  return values.length > 30 ? `${shown}, ... (${values.length} in all)` : shown || '(none)';
}

/**
 * Builds the plan. A CLI filter entry that matches nothing is an error (exit code 2) listing what
 * is available, so a typo never silently runs nothing.
 */
export function planJobs(
  loaded: { config: ResolvedConfig; scenarios: readonly ResolvedScenario[] },
  filters: PlanFilters = {},
): Plan {
  const { config, scenarios } = loaded;
  const scenarioFilter = splitList(filters.scenarios);
  const agentFilter = splitList(filters.agents);

  for (const pattern of scenarioFilter) {
    if (!scenarios.some((s) => scenarioMatches(pattern, s))) {
      throw new AxisError(
        `No scenario matches "${pattern}". Available scenarios: ${listOf(scenarios.map((s) => s.key))}`,
        { exitCode: 2 },
      );
    }
  }
  for (const pattern of agentFilter) {
    if (!config.agents.some((a) => agentMatches(pattern, a))) {
      throw new AxisError(
        `No agent matches "${pattern}". Configured agents: ${listOf(config.agents.map((a) => a.name))}`,
        {
          exitCode: 2,
        },
      );
    }
  }

  const tagFilter = splitList(filters.tags);
  const known = [...new Set(scenarios.flatMap((s) => s.tags))].sort();
  for (const tag of tagFilter) {
    if (!known.includes(tag)) {
      throw new AxisError(`No scenario has the tag "${tag}". Tags in use: ${listOf(known)}`, { exitCode: 2 });
    }
  }

  const selected = scenarios.filter(
    (s) =>
      (scenarioFilter.length === 0 || scenarioFilter.some((p) => scenarioMatches(p, s))) &&
      (tagFilter.length === 0 || tagFilter.some((t) => s.tags.includes(t))),
  );
  const agents = config.agents.filter(
    (a) => agentFilter.length === 0 || agentFilter.some((p) => agentMatches(p, a)),
  );
  const runs = config.settings.runs;

  const jobs: Job[] = [];
  const usedScenarios: ResolvedScenario[] = [];
  const usedAgents = new Set<ResolvedAgent>();
  for (const scenario of selected) {
    if (scenario.skip) continue;
    let used = false;
    for (const agent of agents) {
      if (agent.scenarios && !agent.scenarios.some((p) => scenarioMatches(p, scenario))) continue;
      if (scenario.agents && !scenario.agents.some((p) => agentMatches(p, agent))) continue;
      used = true;
      usedAgents.add(agent);
      for (let run = 1; run <= runs; run++) jobs.push({ index: jobs.length, scenario, agent, run, runs });
    }
    if (used) usedScenarios.push(scenario);
  }
  return {
    jobs,
    scenarios: usedScenarios,
    agents: agents.filter((a) => usedAgents.has(a)),
    skipped: selected.filter((s) => s.skip),
    runs,
  };
}
