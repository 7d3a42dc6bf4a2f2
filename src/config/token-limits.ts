/**
 * Token limits need token counts: an agent whose preset is known to send none over ACP (the Claude and
 * Codex bridges), or a `command` agent whose output is plain text, could never be stopped by one, so a
 * limit that would apply to it is a validation error rather than a setting silently ignored.
 */
import picomatch from 'picomatch';
import { ACP_PRESETS } from './catalogue.js';
import type { PathMessage } from './issues.js';
import type { ResolvedAgent, ResolvedConfig, ResolvedScenario } from './types.js';

const matches = (patterns: readonly string[] | undefined, ...names: string[]): boolean =>
  !patterns || patterns.some((p) => names.includes(p) || names.some((n) => picomatch(p)(n)));

/** Scenarios `agent` would run (both sides' filters), by the same name rules as the plan. */
function scenariosOf(agent: ResolvedAgent, scenarios: readonly ResolvedScenario[]): ResolvedScenario[] {
  return scenarios.filter(
    (s) =>
      matches(agent.scenarios, s.key, s.baseKey) &&
      matches(
        s.agents?.map((p) => p.toLowerCase()),
        agent.name,
        agent.agent,
      ),
  );
}

/** Why agent `i` can report no token counts, and what to do; undefined when it can. */
function tokenBlind(a: ResolvedAgent, i: number): { why: string; fix: string } | undefined {
  if (a.preset && ACP_PRESETS[a.preset]?.tokens === false)
    return {
      why: `agent "${a.name}" (agents[${i}], preset "${a.preset}") reports no token counts over ACP, so a token limit cannot stop it`,
      fix: 'remove the limit or the agent',
    };
  // Plain text output carries no usage events (transcript/axis-ndjson.ts, TextParser).
  if (a.agent === 'command' && a.output === 'text')
    return {
      why: `agent "${a.name}" (agents[${i}], agent "command" with output "text") reports no token counts, so a token limit cannot stop it`,
      fix: 'remove the limit, or have the command print AXIS NDJSON with usage events ("output": "ndjson")',
    };
  return undefined;
}

export function tokenLimitIssues(
  config: ResolvedConfig,
  scenarios: readonly ResolvedScenario[],
): PathMessage[] {
  const issues: PathMessage[] = [];
  config.agents.forEach((a, i) => {
    const blind = tokenBlind(a, i);
    if (!blind) return;
    const { why, fix } = blind;
    if (config.settings.limits.run.tokens !== undefined)
      issues.push({ path: 'settings.limits.run.tokens', message: `${why}; ${fix}` });
    if (config.settings.limits.scenario.tokens !== undefined) {
      issues.push({ path: 'settings.limits.scenario.tokens', message: `${why}; ${fix}` });
      return;
    }
    const keys = scenariosOf(a, scenarios)
      .filter((s) => s.limits.tokens !== undefined)
      .map((s) => s.key);
    if (keys.length === 0) return;
    const shown = keys.length > 5 ? `${keys.slice(0, 5).join(', ')}, …` : keys.join(', ');
    issues.push({
      path: `agents[${i}]`,
      message: `${why}, and scenario${keys.length === 1 ? '' : 's'} ${shown} set limits.tokens; remove those limits, or keep the agent off them with its "scenarios" filter`,
    });
  });
  return issues;
}
