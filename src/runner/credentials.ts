/**
 * The agents' credentials, checked before any job starts (docs/adapters.md#credentials), as problems
 * listed with the config's others.
 */
import { homedir } from 'node:os';
import { checkAuth, type AuthSubject } from '../adapters/auth.js';
import type { AgentAdapter, AuthResolution } from '../adapters/types.js';
import type { ResolvedAgent } from '../config/types.js';
import type { ValidationIssue } from '../util/errors.js';

/**
 * How each agent authenticates, and each one without credentials as a problem of `configFile` (listed
 * with the config's others). Against the simulator, agents whose provider variables it supplies need none.
 */
export function credentialCheck(
  agents: readonly ResolvedAgent[],
  adapters: ReadonlyMap<string, AgentAdapter>,
  configEnv: Readonly<Record<string, string>>,
  simulate: boolean,
  configFile = 'axis.config',
): { auth: Map<string, AuthResolution>; issues: ValidationIssue[]; note?: string } {
  const subjects: AuthSubject[] = [];
  for (const agent of agents) {
    const adapter = adapters.get(agent.agent);
    if (!adapter || simulatorSupplies(adapter, simulate)) continue;
    subjects.push({ adapter, name: agent.name, env: { ...configEnv, ...agent.env } });
  }
  const { resolved, missing } = checkAuth(subjects, process.env, homedir());
  const issues = missing.map((m) => ({
    file: configFile,
    path: `agents "${m.name}"`,
    message: `no credentials: ${m.message}`,
  }));
  // Without a key the simulator is the way to run at all (a new user's first run): say how.
  if (!issues.length || simulate || !subjects.every((s) => simulatorSupplies(s.adapter, true)))
    return { auth: resolved, issues };
  const note =
    `To run offline instead, set "settings": { "simulate": true } in ${configFile}: the simulator then ` +
    "plays the model from each scenario's tape (tapes/<scenario key>.json; docs/simulator.md in axis-eval).";
  return { auth: resolved, issues, note };
}

export const simulatorSupplies = (adapter: AgentAdapter, simulate: boolean) =>
  simulate && (adapter.providerEnvFor !== undefined || adapter.providerEnv.length > 0);
