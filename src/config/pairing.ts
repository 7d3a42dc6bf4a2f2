/**
 * Which agents run which scenarios: name matching shared by every filter (a pattern matches a value
 * exactly or as a picomatch glob, against the full name or its base: the scenario key without
 * `@variant`, the adapter name of an agent; `*` and `**` match everything, `/` included), and the
 * agent × scenario pairing rule the plan and validation both apply.
 */
import picomatch from 'picomatch';
import type { ResolvedAgent, ResolvedScenario } from './types.js';

const cache = new Map<string, (s: string) => boolean>();

function matcher(pattern: string): (s: string) => boolean {
  let m = cache.get(pattern);
  if (!m) {
    m = pattern === '*' || pattern === '**' ? () => true : picomatch(pattern, { dot: true });
    cache.set(pattern, m);
  }
  return m;
}

export function matchesName(pattern: string, full: string, base: string): boolean {
  if (pattern === full || pattern === base) return true;
  const m = matcher(pattern);
  return m(full) || m(base);
}

export const agentMatches = (pattern: string, a: ResolvedAgent): boolean =>
  matchesName(pattern.toLowerCase(), a.name, a.agent);

export const scenarioMatches = (pattern: string, s: ResolvedScenario): boolean =>
  matchesName(pattern, s.key, s.baseKey);

/** The agent's `scenarios` and the scenario's `agents` filters both let the pair run. */
export function runsOn(agent: ResolvedAgent, scenario: ResolvedScenario): boolean {
  if (agent.scenarios && !agent.scenarios.some((p) => scenarioMatches(p, scenario))) return false;
  return !scenario.agents || scenario.agents.some((p) => agentMatches(p, agent));
}
