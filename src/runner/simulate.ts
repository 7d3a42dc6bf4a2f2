/**
 * `settings.simulate`: each job gets its own simulator on 127.0.0.1 serving the scenario's tape. The job
 * env then carries the same provider variables a user exports for a real provider (base URL + key), so
 * adapters take exactly the path they take against a real provider.
 */
import { relative } from 'node:path';
import { standardProviderEnv } from '../adapters/provider-env.js';
import type { AgentAdapter } from '../adapters/types.js';
import type { ResolvedScenario } from '../config/types.js';
// The simulator's own modules, not its index: that one also loads the recorder and the replayer
// (40 KB of code and their schemas), which a run never uses.
import { TapeEngine } from '../sim/engine.js';
import { SIM_API_KEY, startSimulator, type Simulator } from '../sim/server.js';
import { loadTape, type Tape } from '../sim/tape.js';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import type { SimulatorRecord } from '../report/job-result.js';

/** Provider-call retries the agent CLIs get against the simulator: a tape fault is retried, a loop is not. */
export const SIM_MAX_RETRIES = 2;

export interface JobSimulator {
  sim: Simulator;
  /** Provider variables for the job env. */
  env: Record<string, string>;
  /** Where the job's judges reach the simulator: through the gateway, sharing connections across jobs. */
  judgeUrl: string;
  close(): Promise<void>;
  record(configDir: string): SimulatorRecord;
}

/**
 * The selected scenarios' tapes, as `preloadTapes` loads them; one without its tape file (noted when the
 * config loaded) is a config error naming the file and field (exit 2). Unselected scenarios need none.
 */
export async function loadPlannedTapes(scenarios: readonly ResolvedScenario[]): Promise<Map<string, Tape>> {
  checkTapesExist(scenarios);
  return preloadTapes(scenarios.map((s) => s.tape));
}

/** ConfigError (exit 2) listing the scenarios without their tape file, if any. */
export function checkTapesExist(scenarios: readonly ResolvedScenario[]): void {
  const missing = missingTapeIssues(scenarios);
  if (missing.length) throw new ConfigError(missing);
}

/** The scenarios without their tape file, as issues. */
export function missingTapeIssues(scenarios: readonly ResolvedScenario[]): ValidationIssue[] {
  const missing = new Map<string, ValidationIssue>();
  // Variants inheriting one explicit tape share its problem: said once.
  for (const { missingTape: m } of scenarios) if (m) missing.set(`${m.file}\0${m.path}\0${m.message}`, m);
  return [...missing.values()];
}

/**
 * Loads every tape once before any job starts, so a broken tape is one clear error (exit 2) instead of
 * a failed job per run. Returns path → tape.
 */
export async function preloadTapes(paths: Iterable<string>): Promise<Map<string, Tape>> {
  const tapes = new Map<string, Tape>();
  const issues: ValidationIssue[] = [];
  for (const path of new Set(paths)) {
    try {
      tapes.set(path, await loadTape(path));
    } catch (err) {
      if (err instanceof ConfigError) issues.push(...err.issues);
      else issues.push({ file: path, path: '', message: err instanceof Error ? err.message : String(err) });
    }
  }
  if (issues.length) throw new ConfigError(issues);
  return tapes;
}

/**
 * `tapePath` names the tape in the record; `tape` is its content as `preloadTapes` loaded and checked it
 * (read from the path when absent). A preloaded tape gets its engine here: handed to `startSimulator` as
 * a tape it was checked again for every job (about 3 ms a job for the 20 MB bench's 400 KB tape).
 */
export async function startJobSimulator(
  tapePath: string,
  adapter: AgentAdapter,
  tape?: Tape,
): Promise<JobSimulator> {
  const sim = await startSimulator(tape ? { responder: new TapeEngine(tape) } : { tape: tapePath });
  const env = adapter.providerEnvFor
    ? adapter.providerEnvFor(sim.url, SIM_API_KEY)
    : pick(standardProviderEnv(sim.url, SIM_API_KEY), adapter.providerEnv);
  // A gateway that cannot listen only costs speed: the judges then use the job's own port.
  const judgeUrl = await sim.localUrl().catch(() => sim.url);
  let closed = false;
  return {
    sim,
    env,
    judgeUrl,
    close: async () => {
      if (closed) return;
      closed = true;
      await sim.close().catch(() => {});
    },
    record: (configDir) => ({
      requests: sim.requests.length,
      events: [...sim.events],
      tape: relative(configDir, tapePath).split('\\').join('/') || tapePath,
    }),
  };
}

function pick(env: Record<string, string>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) if (env[name] !== undefined) out[name] = env[name];
  return out;
}
