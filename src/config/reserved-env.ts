/**
 * Variables AXIS sets for every job's processes (docs/running.md#environment): its own HOME, TMPDIR and
 * XDG dirs, and AXIS's own variables (the prompt file, the MCP file, the lifecycle variables, the process
 * tag containment finds processes by). A value in `env` would either win and break the job's isolation
 * (an agent writing to a shared HOME) or lose to AXIS's and be silently ignored: a validation error.
 */
import type { PathMessage } from './issues.js';

const JOB_OWNED = new Set([
  'HOME',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  ...[
    'PROMPT_FILE',
    'MCP_CONFIG',
    'PROCESS_TAG',
    'OUTPUT',
    'WORKSPACE',
    'PHASE',
    'CONFIG_DIR',
    'HOME',
    'RUN_INDEX',
    'SCENARIO',
    'AGENT',
    'ADAPTER',
    'VARIANT',
    'MODEL',
    'REPORT_DIR',
    'REPORT_ID',
    'TOTAL',
    'COMPLETED',
    'FAILED',
    'DURATION_MS',
  ].map((n) => `AXIS_${n}`),
]);

/** One issue per job-owned name in `env` (an array of names or an object of values) at `path`. */
export function reservedEnvIssues(
  env: readonly string[] | Readonly<Record<string, string>> | undefined,
  path: string,
  issues: PathMessage[],
): void {
  if (!env) return;
  const entries: [string, string][] = Array.isArray(env)
    ? env.map((name, i) => [name, `${path}[${i}]`])
    : Object.keys(env).map((name) => [name, `${path}.${name}`]);
  for (const [name, at] of entries)
    if (JOB_OWNED.has(name))
      issues.push({
        path: at,
        message: `AXIS sets ${name} for every job, so a value here would break the job's isolation or be ignored; remove it`,
      });
}
