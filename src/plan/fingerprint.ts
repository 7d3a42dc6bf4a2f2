/**
 * The config hash of a sharded run: one fingerprint of everything that decides which jobs exist and how
 * they are run and scored, computed the same way on every machine. Shards whose hashes differ ran
 * different suites and are never merged into one report.
 *
 * What machines may legitimately differ on is left out: the checkout directory (paths under the config
 * directory are made relative), `concurrency`, and the values of explicit environment variables and
 * headers (only their names count, so no secret ends up hashed into a file).
 */
import { createHash } from 'node:crypto';
import { sep } from 'node:path';
import type { LoadedConfig } from '../config/types.js';
import { MAX_TAPE_BYTES } from '../sim/tape.js';
import { readInputBytes } from '../util/input-file.js';
import type { Plan } from './plan.js';
import { jobKeyOf } from './shard.js';

const VALUES_HIDDEN = new Set(['env', 'headers']);

export function configFingerprint(loaded: LoadedConfig, plan: Plan): string {
  const config = loaded.config;
  const { concurrency: _machineDependent, ...settings } = config.settings;
  const subject = {
    name: config.name ?? null,
    profile: loaded.profile ?? null,
    settings: { ...settings, runs: plan.runs },
    judge: config.judge ?? null,
    environment: { pass: config.env.pass, values: Object.keys(config.env.values).sort() },
    mcp_servers: config.mcp_servers,
    skills: config.skills,
    artifacts: config.artifacts,
    adapters: config.adapters,
    beforeAll: config.beforeAll,
    afterAll: config.afterAll,
    agents: plan.agents,
    // Notes of missing files (absolute paths in messages) are not portable; a missing tape counts in `tapes`.
    scenarios: plan.scenarios.map(({ missingTape: _tape, missingSkills: _skills, ...s }) => s),
    tapes: config.settings.simulate ? plan.scenarios.map((s) => contentHash(s.tape)) : null,
    remotes: remoteCommits(loaded),
    skipped: plan.skipped.map((s) => s.key),
    jobs: plan.jobs.map(jobKeyOf),
  };
  const canonical = canonicalJson(subject, portablePaths(loaded.configDir));
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The commit of every remote checkout the scenarios came from: a branch that moved between two shards
 * gave them different files (a fixture a scenario copies, a setup script) even when the scenarios match.
 */
function remoteCommits(loaded: LoadedConfig): string[] {
  const commits = new Set<string>();
  for (const source of loaded.config.scenarios)
    if ('remote' in source && source.remote) commits.add(`${source.remote.spec} ${source.remote.commit}`);
  return [...commits].sort();
}

/**
 * A tape is named by path but decides every score of a simulated run: its content counts, so shards of
 * checkouts whose tapes differ never merge. Read as the simulator reads it (a regular file under its cap,
 * never blocking); an unreadable tape stops the run before any job anyway.
 */
function contentHash(path: string): string {
  try {
    return createHash('sha256').update(readInputBytes(path, MAX_TAPE_BYTES)).digest('hex');
  } catch {
    return 'unreadable';
  }
}

function portablePaths(configDir: string): (s: string) => string {
  const prefixes = [configDir.endsWith(sep) ? configDir : configDir + sep];
  if (sep === '\\') prefixes.push(prefixes[0]!.replace(/\\/g, '/'));
  return (s) => {
    for (const p of prefixes) if (s.startsWith(p)) return `./${s.slice(p.length).split('\\').join('/')}`;
    return s === configDir ? '.' : s;
  };
}

/** JSON with object keys sorted, strings passed through `mapString`, hidden values replaced by their keys. */
function canonicalJson(value: unknown, mapString: (s: string) => string, hide = false): string {
  if (typeof value === 'string') return JSON.stringify(mapString(value));
  if (value === undefined || typeof value === 'function') return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, mapString)).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (hide) return JSON.stringify(keys);
  const body = keys.map(
    (k) =>
      `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k], mapString, VALUES_HIDDEN.has(k))}`,
  );
  return `{${body.join(',')}}`;
}
