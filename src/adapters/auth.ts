/**
 * Auth pre-flight: before any job starts, every distinct agent must have an API-key variable or a
 * local CLI login. All problems are reported together, one line per agent.
 */
import { AxisError } from '../util/errors.js';
import type { AgentAdapter, AuthResolution } from './types.js';

export interface AuthSubject {
  adapter: AgentAdapter;
  /** Label in messages and key in the result; default the adapter name. */
  name?: string;
  /** Explicit values the job env will carry (config `env` values, the agent's `env`): they count too. */
  env?: Readonly<Record<string, string>>;
}

type HostEnv = Readonly<Record<string, string | undefined>>;

/** How one agent authenticates, or an error line; pure apart from reading login files. */
export function resolveAuth(
  subject: AuthSubject,
  hostEnv: HostEnv,
  hostHome: string,
): AuthResolution | string {
  const auth = subject.adapter.auth;
  if (!auth) return { source: 'none' };
  // API keys are preferred over a local login when both exist.
  for (const variable of auth.envVars) {
    if (subject.env?.[variable] || hostEnv[variable]) return { source: 'env', variable };
  }
  const files = auth.localLoginFiles?.(hostHome, hostEnv);
  if (files) return { source: 'local_login', files };
  if (!auth.localLoginFiles && auth.detectLocalLogin?.(hostHome)) return { source: 'local_login', files: [] };
  const label = subject.name ?? subject.adapter.name;
  const vars = auth.envVars.length ? `none of ${auth.envVars.join(', ')} is set` : 'no credentials found';
  return `${label}: ${vars}${auth.detectLocalLogin || auth.localLoginFiles ? ' and no local login was found' : ''}; ${auth.hint}`;
}

/**
 * How every distinct agent (by name) authenticates, and each one without credentials (its name and
 * what is missing), so a caller can list them with its other problems.
 */
export function checkAuth(
  agents: Iterable<AgentAdapter | AuthSubject>,
  hostEnv: HostEnv,
  hostHome: string,
): { resolved: Map<string, AuthResolution>; missing: { name: string; message: string }[] } {
  const resolved = new Map<string, AuthResolution>();
  const missing: { name: string; message: string }[] = [];
  for (const entry of agents) {
    const subject: AuthSubject = 'run' in entry ? { adapter: entry } : entry;
    const name = subject.name ?? subject.adapter.name;
    if (resolved.has(name) || missing.some((p) => p.name === name)) continue;
    const res = resolveAuth(subject, hostEnv, hostHome);
    if (typeof res === 'string') missing.push({ name, message: res.slice(name.length + 2) });
    else resolved.set(name, res);
  }
  return { resolved, missing };
}

/**
 * Checks every distinct agent (by name) and returns how each authenticates. Throws one AxisError
 * (exit 2) listing every agent without credentials.
 */
export function preflightAuth(
  agents: Iterable<AgentAdapter | AuthSubject>,
  hostEnv: HostEnv,
  hostHome: string,
): Map<string, AuthResolution> {
  const { resolved, missing } = checkAuth(agents, hostEnv, hostHome);
  if (missing.length) {
    const noun = missing.length === 1 ? 'agent has' : 'agents have';
    const lines = missing.map((p) => `  ${p.name}: ${p.message}`);
    throw new AxisError(`${missing.length} ${noun} no credentials:\n${lines.join('\n')}`, { exitCode: 2 });
  }
  return resolved;
}
