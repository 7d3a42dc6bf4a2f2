/**
 * Which of a job's namespaces (job-space.ts) it gets: a private /tmp wherever the host permits it, and a
 * loopback-only network when its scenario (or `settings.network`) asks for one. A loopback request the
 * host cannot honour fails the job; it never runs with the network open.
 */
import { networkOver } from '../config/network.js';
import { jobMcpServers } from './mcp-refs.js';
import { PROVIDER_BASE_ENV } from '../adapters/provider-env.js';
import type { McpServer, NetworkPolicy, ResolvedScenario, ResolvedSettings } from '../config/types.js';
import type { JobRun } from './job-state.js';
import { openJobNet } from '../exec/job-net.js';
import { loopbackProblem, privateTmpProblem, projectUnderTmp, writeJobFstab } from '../exec/job-space.js';
import type { Workspace } from '../exec/workspace.js';
import { PACKAGE_ROOT } from '../util/package-root.js';

/** The scenario's own `network` mode wins; the ports of both are allowed. */
export const jobNetwork = networkOver;

export interface ForwardedPort {
  port: number;
  /** Why it is reachable, for `-v`. */
  why: string;
}

const LOOPBACK_URL = /\b(https?|wss?):\/\/(?:127\.0\.0\.1|localhost)(?::(\d{1,5}))?(?=[/?#\s"']|$)/g;

/** Host loopback ports named by URLs in `text` (a missing port is the scheme's default). */
export function loopbackPorts(text: string): number[] {
  const ports: number[] = [];
  for (const m of text.matchAll(LOOPBACK_URL)) {
    const port = m[2] ? Number(m[2]) : /^(https|wss)$/.test(m[1]!) ? 443 : 80;
    if (port >= 1 && port <= 65535) ports.push(port);
  }
  return ports;
}

/**
 * The host ports a loopback-only job may reach: its simulator, a local provider (a loopback URL in one
 * of the provider variables `providerVars`, e.g. ANTHROPIC_BASE_URL), HTTP MCP servers on loopback, and
 * the policy's `ports`. Other variables do not open ports. First reason wins.
 */
export function forwardedPorts(input: {
  policy: NetworkPolicy;
  simulatorUrl?: string;
  env: Readonly<Record<string, string>>;
  providerVars: readonly string[];
  mcpServers: Readonly<Record<string, McpServer>>;
}): ForwardedPort[] {
  const out = new Map<number, string>();
  const add = (ports: number[], why: string): void => {
    for (const p of ports) if (!out.has(p)) out.set(p, why);
  };
  if (input.simulatorUrl) add(loopbackPorts(input.simulatorUrl), 'simulator');
  for (const name of new Set(input.providerVars)) {
    const value = input.env[name];
    if (value !== undefined) add(loopbackPorts(value), `$${name}`);
  }
  for (const [name, server] of Object.entries(input.mcpServers))
    if (server.type === 'http') add(loopbackPorts(server.url), `MCP server ${name}`);
  add(input.policy.ports, 'network.ports');
  return [...out].map(([port, why]) => ({ port, why }));
}

/** `-v` lines at the start of a run: the /tmp and network isolation in force. */
export function describeIsolation(
  settings: ResolvedSettings,
  scenarios: readonly ResolvedScenario[],
): string[] {
  const tmpProblem = settings.sandbox === 'bwrap' ? null : privateTmpProblem();
  const tmp =
    settings.sandbox === 'bwrap'
      ? 'private /tmp: per process (bubblewrap)'
      : tmpProblem
        ? `private /tmp: no, only a private TMPDIR per job (${tmpProblem})`
        : 'private /tmp: per job (mount namespace; the workspace and project stay at their paths)';
  const loopback = scenarios.filter((s) => jobNetwork(settings.network, s.network).mode === 'loopback');
  if (loopback.length === 0) return [tmp, 'network: host (the agent shares the host network)'];
  const problem = loopbackProblem();
  const which = loopback.length === scenarios.length ? 'every scenario' : `${loopback.length} scenario(s)`;
  return [
    tmp,
    problem
      ? `network: loopback-only requested by ${which}, not possible here (${problem}): those jobs fail`
      : `network: loopback-only for ${which} (own network namespace; allowed host ports forwarded)`,
  ];
}

/** Sets up the job's private /tmp and, for a loopback job, its network, once its environment is known. */
export async function openJobIsolation(run: JobRun, ws: Workspace): Promise<void> {
  const { settings } = run.services.loaded.config;
  const ports = loopbackPortsOf(run);
  const keep = [ws.root, ...keptUnderTmp(run.configDir)];
  const written =
    settings.sandbox !== 'bwrap' && privateTmpProblem() === null
      ? await writeJobFstab(ws.root, ws.tmp, keep, {
          ...(ws.bindPoints ? { points: ws.bindPoints } : {}),
          ...(ws.fstabText !== undefined ? { text: ws.fstabText } : {}),
        })
      : undefined;
  if (written) {
    ws.bindPoints = written.points;
    ws.fstabText = written.text;
  }
  const fstab = written?.path;
  const net = ports ? await openJobNet(ws.root, ports) : undefined;
  if (net) run.net = net;
  run.space = { ...(fstab ? { fstab } : {}), ...(net ? { net } : {}) };
}

/**
 * AXIS's own install dir (where `npx axis` finds the agent CLIs it pins, and a checkout's fixtures). A
 * checkout or CI clone under /tmp would otherwise hide the agent binaries from the jobs it runs.
 */
const AXIS_ROOT = PACKAGE_ROOT;

/** What a job's private /tmp keeps visible at its own path: the project dir and AXIS's install dir. */
export function keptUnderTmp(configDir: string, axisRoot = AXIS_ROOT): string[] {
  return [...new Set([...projectDirUnderTmp(configDir), ...projectDirUnderTmp(axisRoot)])];
}

/** {@link projectUnderTmp} once per project dir (a `realpath` per job showed in profiles). */
const underTmp = new Map<string, readonly string[]>();

export function projectDirUnderTmp(dir: string): readonly string[] {
  let dirs = underTmp.get(dir);
  if (!dirs) underTmp.set(dir, (dirs = projectUnderTmp(dir)));
  return dirs;
}

/** A loopback job's forwarded ports (logged); undefined for the host network. Throws when impossible. */
function loopbackPortsOf(run: JobRun): number[] | undefined {
  const { settings } = run.services.loaded.config;
  const policy = jobNetwork(settings.network, run.job.scenario.network);
  if (policy.mode !== 'loopback') return undefined;
  const problem = loopbackProblem();
  if (problem) throw new Error(`network "loopback" cannot be honoured: ${problem}`);
  const adapter = run.services.adapters.get(run.job.agent.agent);
  const forwarded = forwardedPorts({
    policy,
    ...(run.sim ? { simulatorUrl: run.sim.sim.url } : {}),
    env: run.env,
    providerVars: [...PROVIDER_BASE_ENV, ...(adapter?.providerEnv ?? [])],
    mcpServers: jobMcpServers(run.services.mcpServers, run.job.scenario.key),
  });
  const list = forwarded.map((f) => `${f.port} (${f.why})`).join(', ') || 'none';
  run.log(`network: loopback only; host 127.0.0.1 ports forwarded: ${list}`);
  return forwarded.map((f) => f.port);
}
