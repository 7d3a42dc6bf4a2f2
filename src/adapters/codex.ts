/**
 * Codex CLI: `codex exec --json [-m M] --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -`,
 * prompt on stdin. CODEX_HOME lives in the job home; config.toml (provider, MCP servers) is generated
 * with smol-toml. After the run the session rollout fills in what `--json` left out.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml, stringify as toToml } from 'smol-toml';
import { clientSetup } from '../sim/clients.js';
import { mergeCodexRollout } from '../transcript/codex-merge.js';
import { parseCodexRollout } from '../transcript/codex-rollout.js';
import type { ParsedStream } from '../transcript/model.js';
import { parserFor } from '../transcript/registry.js';
import { readRegularFile } from '../util/input-file.js';
import { codexLoginFiles, detectCodexLogin } from './auth-detect.js';
import { installCredentials, prepareAndRun, writeFiles } from './base.js';
import { renderFlags, withDefaults, type Flags } from './flags.js';
import { codexMcpServers } from './mcp.js';
import { openaiEnvFor, providerRoot } from './provider-env.js';
import { installSkills } from './skills.js';
import type { AdapterRunContext, AgentAdapter } from './types.js';

/**
 * AXIS runs each job in its own directory; Codex' own sandbox would also hide commands from --json.
 * The job's workspace is no git repository, so the repo check is skipped unless the user turns it on
 * with `false` (upstream AXIS's documented default flag; codex refuses it given twice).
 */
export const CODEX_DEFAULT_FLAGS: Flags = {
  'skip-git-repo-check': true,
  'dangerously-bypass-approvals-and-sandbox': true,
};
const REPO_CHECK: Flags = { 'skip-git-repo-check': true };
/** User flags that choose a sandbox themselves (the bypass default is then left out). */
const SANDBOX_FLAGS = ['sandbox', 's', '-s', '--sandbox'];
const FULL_AUTO = ['full-auto', '--full-auto'];

export interface CodexInvocation {
  args: string[];
  env: Record<string, string>;
  files: Array<{ path: string; content: string }>;
  codexHome: string;
}

/**
 * Codex dropped `--full-auto` (in `exec`, an alias of `--sandbox workspace-write`), which upstream AXIS
 * documented as a default flag: `full-auto: true` becomes that sandbox, `false` nothing.
 */
function replaceFullAuto(flags: Flags): Flags {
  if (!FULL_AUTO.some((k) => k in flags)) return flags;
  const on = FULL_AUTO.some((k) => k in flags && flags[k] !== false);
  const user = Object.fromEntries(Object.entries(flags).filter(([k]) => !FULL_AUTO.includes(k)));
  const sandboxSet = Object.keys(user).some((k) => SANDBOX_FLAGS.includes(k));
  return on && !sandboxSet ? { ...user, sandbox: 'workspace-write' } : user;
}

export function codexFlags(flags: Flags): Flags {
  const user = replaceFullAuto(flags);
  const chooses = Object.keys(user).some((k) => SANDBOX_FLAGS.includes(k) && user[k] !== false);
  return withDefaults(chooses ? REPO_CHECK : CODEX_DEFAULT_FLAGS, user);
}

/** config.toml content: the provider from clientSetup when a base URL is set, plus MCP servers. */
export function codexConfig(ctx: AdapterRunContext): {
  config: Record<string, unknown>;
  env: Record<string, string>;
} {
  const baseUrl = ctx.env.OPENAI_BASE_URL;
  const apiKey = ctx.env.CODEX_API_KEY || ctx.env.OPENAI_API_KEY || '';
  let config: Record<string, unknown> = {};
  const env: Record<string, string> = {};
  if (baseUrl) {
    const setup = clientSetup('codex', {
      baseUrl: providerRoot(baseUrl),
      apiKey,
      home: ctx.homeDir,
      // Codex' own default model speaks a tool protocol generic endpoints lack; without a configured
      // model clientSetup's placeholder name is used.
      model: ctx.agent.model ?? (ctx.env.OPENAI_MODEL || undefined),
      maxRetries: ctx.maxRetries,
    });
    const file = setup.files.find((f) => f.path.endsWith('config.toml'));
    config = file ? (parseToml(file.content) as Record<string, unknown>) : {};
    // The URL exactly as configured (clientSetup assumes a root and appends /v1).
    const providers = config.model_providers as Record<string, Record<string, unknown>> | undefined;
    for (const p of Object.values(providers ?? {})) p.base_url = baseUrl.replace(/\/+$/, '');
    for (const [k, v] of Object.entries(setup.env)) if (!(k in ctx.env) || k.startsWith('AXIS_')) env[k] = v;
  } else if (!ctx.env.CODEX_API_KEY && ctx.env.OPENAI_API_KEY) {
    // `codex exec` reads CODEX_API_KEY.
    env.CODEX_API_KEY = ctx.env.OPENAI_API_KEY;
  }
  // Telemetry and update checks off (they also stall a few seconds each without network).
  config.analytics = { enabled: false };
  config.check_for_update_on_startup = false;
  if (Object.keys(ctx.mcpServers).length > 0) config.mcp_servers = codexMcpServers(ctx.mcpServers);
  return { config, env };
}

export function codexInvocation(ctx: AdapterRunContext): CodexInvocation {
  const codexHome = join(ctx.homeDir, '.codex');
  const { config, env: providerEnv } = codexConfig(ctx);
  const files = [{ path: join(codexHome, 'config.toml'), content: `${toToml(config)}\n` }];
  const args = ['exec', '--json'];
  if (ctx.agent.model) args.push('-m', ctx.agent.model);
  args.push(...renderFlags(codexFlags(ctx.agent.flags)));
  // `-` reads the prompt from stdin: no argv size limit, and nothing else is appended to it.
  args.push('-');
  const env = { ...ctx.env, ...providerEnv, CODEX_HOME: codexHome };
  return { args, env, files, codexHome };
}

/** Newest `rollout-*.jsonl` under `<codexHome>/sessions`, preferring the one naming `sessionId`. */
export async function findRollout(codexHome: string, sessionId?: string): Promise<string | undefined> {
  const found: Array<{ path: string; mtime: number }> = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < 4) await walk(path, depth + 1);
      else if (e.isFile() && e.name.startsWith('rollout-') && e.name.endsWith('.jsonl')) {
        found.push({ path, mtime: (await stat(path)).mtimeMs });
      }
    }
  };
  await walk(join(codexHome, 'sessions'), 0);
  if (sessionId) {
    const exact = found.find((f) => f.path.includes(sessionId));
    if (exact) return exact.path;
  }
  found.sort((a, b) => b.mtime - a.mtime);
  return found[0]?.path;
}

/**
 * The session log is the agent's to write (its shell can grow it to gigabytes, or swap it for a FIFO):
 * read only as a regular file up to this size, else the transcript stays as `--json` gave it.
 */
const MAX_ROLLOUT_BYTES = 256 * 1024 * 1024;

async function mergeRollout(codexHome: string, parsed: ParsedStream): Promise<ParsedStream> {
  const file = await findRollout(codexHome, parsed.sessionId);
  const bytes = file ? await readRegularFile(file, MAX_ROLLOUT_BYTES) : undefined;
  if (!bytes) return parsed;
  return mergeCodexRollout(parsed, parseCodexRollout(bytes.toString('utf8')));
}

export const codexAdapter: AgentAdapter = {
  name: 'codex',
  acceptsModel: true,
  acceptsFlags: true,
  providerEnv: ['CODEX_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL'],
  providerEnvFor: openaiEnvFor,
  auth: {
    envVars: ['CODEX_API_KEY', 'OPENAI_API_KEY'],
    detectLocalLogin: detectCodexLogin,
    localLoginFiles: codexLoginFiles,
    hint: 'set OPENAI_API_KEY (or CODEX_API_KEY), or log in with `codex login` on this machine',
  },
  run(ctx) {
    return prepareAndRun(ctx, 'codex', async () => {
      const inv = codexInvocation(ctx);
      await installCredentials(ctx);
      await installSkills(ctx.skills, join(inv.codexHome, 'skills'));
      await writeFiles(inv.files, ctx);
      return {
        adapter: 'codex',
        bin: ctx.agent.command ?? 'codex',
        binBase: ctx.configDir,
        npmPackage: '@openai/codex',
        args: inv.args,
        env: inv.env,
        stdin: ctx.prompt,
        parser: parserFor('codex'),
        after: (parsed) => mergeRollout(inv.codexHome, parsed),
      };
    });
  },
};
