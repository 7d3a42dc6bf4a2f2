/**
 * Custom adapters: a .ts/.js module listed under `adapters`, loaded with jiti (so TypeScript works on
 * Node 20) and checked before any job starts.
 */
import { resolve } from 'node:path';
import { ConfigError } from '../util/errors.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';
import { crashTranscript, moduleOutput } from './upstream.js';
import { importUserModule, loadReason } from '../util/user-module.js';

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'function') return 'a function';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

const UPSTREAM_HINT =
  '; @netlify/axis is upstream AXIS, whose createAgentAdapter and createAcpBasedAdapter do not exist here:' +
  ' export { name, run } from the module, or use the "command" or "acp" agent (docs/migrating.md#adapters)';

/** What is wrong with an exported value, or an empty list when it is a usable adapter. */
export function adapterProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [`expected an AgentAdapter object, found ${describe(value)}`];
  }
  const a = value as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof a.run !== 'function')
    problems.push(`"run" must be a function run(ctx) → Promise<Transcript>, found ${describe(a.run)}`);
  if (a.name !== undefined && typeof a.name !== 'string')
    problems.push(`"name" must be a string, found ${describe(a.name)}`);
  for (const key of ['acceptsModel', 'acceptsFlags'] as const) {
    if (a[key] !== undefined && typeof a[key] !== 'boolean')
      problems.push(`"${key}" must be true or false, found ${describe(a[key])}`);
  }
  if (
    a.providerEnv !== undefined &&
    !(Array.isArray(a.providerEnv) && a.providerEnv.every((v) => typeof v === 'string'))
  ) {
    problems.push(`"providerEnv" must be an array of variable names, found ${describe(a.providerEnv)}`);
  }
  if (a.providerEnvFor !== undefined && typeof a.providerEnvFor !== 'function') {
    problems.push(`"providerEnvFor" must be a function, found ${describe(a.providerEnvFor)}`);
  }
  if (a.auth !== undefined) {
    const auth = a.auth as Record<string, unknown> | null;
    if (typeof auth !== 'object' || auth === null)
      problems.push(`"auth" must be an object, found ${describe(auth)}`);
    else {
      if (!Array.isArray(auth.envVars) || !auth.envVars.every((v) => typeof v === 'string')) {
        problems.push(`"auth.envVars" must be an array of variable names, found ${describe(auth.envVars)}`);
      }
      if (typeof auth.hint !== 'string')
        problems.push(`"auth.hint" must be a string, found ${describe(auth.hint)}`);
      if (auth.detectLocalLogin !== undefined && typeof auth.detectLocalLogin !== 'function') {
        problems.push(`"auth.detectLocalLogin" must be a function, found ${describe(auth.detectLocalLogin)}`);
      }
    }
  }
  return problems;
}

/**
 * Loads and validates a module adapter. Throws ConfigError (exit 2) naming the file and what is missing.
 * Optional fields get defaults: `name` = the configured name, acceptsModel/acceptsFlags = true,
 * providerEnv = [].
 */
export async function loadModuleAdapter(file: string, name: string): Promise<AgentAdapter> {
  const where = `adapters.${name}`;
  let mod: Record<string, unknown>;
  try {
    mod = (await importUserModule(file)) as Record<string, unknown>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const first = loadReason((err as Error).message);
    const why =
      (code === 'ENOENT' || code === 'ERR_MODULE_NOT_FOUND'
        ? `cannot load adapter module: ${(err as Error).message}`
        : `cannot load adapter module: ${first}`) + (first.includes("'@netlify/axis'") ? UPSTREAM_HINT : '');
    throw new ConfigError([{ file, path: where, message: why }]);
  }
  let exported = mod.default ?? mod.adapter;
  // A CommonJS module compiled from `export default` nests the value once more.
  const nested = (exported as Record<string, unknown> | undefined)?.default;
  if (
    exported &&
    typeof exported === 'object' &&
    typeof (exported as { run?: unknown }).run !== 'function' &&
    nested
  ) {
    exported = nested;
  }
  if (exported === undefined) {
    const found = Object.keys(mod).filter((k) => k !== '__esModule');
    throw new ConfigError([
      {
        file,
        path: where,
        message: `expected a default export or a named "adapter" export holding an AgentAdapter, found ${found.length ? `exports ${found.map((k) => `"${k}"`).join(', ')}` : 'no exports'}`,
      },
    ]);
  }
  const problems = adapterProblems(exported);
  if (problems.length) {
    throw new ConfigError(problems.map((message) => ({ file, path: where, message })));
  }
  const a = exported as Partial<AgentAdapter> & Pick<AgentAdapter, 'run'>;
  const adapter: AgentAdapter = {
    ...a,
    name: a.name ?? name,
    acceptsModel: a.acceptsModel ?? true,
    acceptsFlags: a.acceptsFlags ?? true,
    providerEnv: a.providerEnv ?? [],
    run: (ctx) => runModule(a, ctx, name),
  };
  return adapter;
}

/** Upstream's `input.config`: the agent entry, a relative `command` made absolute (the cwd is the workspace). */
function upstreamConfig(ctx: AdapterRunContext): Record<string, unknown> {
  const { agent, model, flags, command } = ctx.agent;
  const config: Record<string, unknown> = { agent, model, flags };
  if (command !== undefined)
    config.command = command.includes('/') && ctx.configDir ? resolve(ctx.configDir, command) : command;
  return config;
}

/**
 * The callbacks upstream's AgentInput always carried, which its adapters call unguarded: a token estimate
 * feeds the live usage (so token limits apply), a cleanup runs when the job is stopped.
 */
function upstreamCallbacks(ctx: AdapterRunContext): Record<string, unknown> {
  return {
    onAgentReady: () => {},
    onTokenProgress: (tokens: number) => {
      if (Number.isFinite(tokens)) ctx.onUsage?.({ input: tokens, output: 0, cacheReadInput: 0 });
    },
    registerCleanup: (fn: () => void) => {
      ctx.signal.addEventListener(
        'abort',
        () =>
          void Promise.resolve()
            .then(fn)
            .catch(() => {}),
        { once: true },
      );
    },
  };
}

/**
 * Runs a module adapter's `run`. It also gets the field names upstream AXIS adapters read
 * (`workingDirectory`, `homeDirectory`, `config`, `resolvedSkills`), so one written for upstream runs in
 * the job's workspace rather than AXIS's cwd. A throw or an unreadable return value is a crashed run.
 */
async function runModule(
  a: Pick<AgentAdapter, 'run'>,
  ctx: AdapterRunContext,
  name: string,
): ReturnType<AgentAdapter['run']> {
  const startedAt = Date.now();
  const frame = () => ({ agent: ctx.agent.name, prompt: ctx.prompt, startedAt, endedAt: Date.now() });
  const input = {
    ...ctx,
    workingDirectory: ctx.workDir,
    homeDirectory: ctx.homeDir,
    config: upstreamConfig(ctx),
    scenario: ctx.scenario ?? { key: '', name: '', prompt: ctx.prompt },
    resolvedSkills: ctx.skills,
    ...upstreamCallbacks(ctx),
  };
  try {
    return moduleOutput(await a.run.call(a, input), frame(), name);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return crashTranscript(frame(), `adapter "${name}" threw: ${why}`);
  }
}
