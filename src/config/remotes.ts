/**
 * Git scenario sources → local folders. Each remote is checked out under
 * `.axis/remotes/<host>/<owner>/<repo>@<ref>`; only its scenarios folder (from its own axis.config, else
 * `./scenarios`) is discovered, never its package.json; its env, mcp_servers, skills and artifacts merge
 * into the parent's with the parent winning. TypeScript/JavaScript from a remote (its config, scenario
 * modules, adapters) is loaded only when `settings.remotes.trust_code` allows it; otherwise a notice says
 * what was left out. Every path a remote names must stay inside its checkout.
 */
import { existsSync, statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import picomatch from 'picomatch';
import type { ValidationIssue } from '../util/errors.js';
import { CONFIG_NAMES, UNREAD_NAMES, unreadFormat } from './find.js';
import { ensureCheckout, escapingLinks, insideDir, RemoteError } from './git.js';
import { translateIssues } from './issues.js';
import { FileLoadError, loadFile } from './load-file.js';
import { resolveMcp } from './scenario-resolve.js';
import { PARSE_FILE } from './schema-helpers.js';
import { missingSkillDirs, remoteSkillSource } from './skill-sources.js';
import { configSchema } from './schema.js';
import { displayPath } from './scenarios.js';
import { checkoutDir, parseSource, shownUrl, trustEntryMatches } from './sources.js';
import type { RemoteOrigin, ResolvedConfig, ScenarioSource, SkillIssue } from './types.js';

export const TRUST_SETTING = 'settings.remotes.trust_code';

interface Ctx {
  configDir: string;
  cwd: string;
  configFile: string;
  config: ResolvedConfig;
  issues: ValidationIssue[];
  notices: string[];
  /** Skill sources of remote configs the run could not install: reported when a run or validate starts. */
  missingSkills: SkillIssue[];
  /** URLs being expanded, to catch cycles. */
  stack: string[];
  /** Checkout folder → the source using it: two sources must never share one. */
  checkouts: Map<string, GitSourceEntry>;
}

export function isTrusted(trust: boolean | string[], url: string, spec: string): boolean {
  if (typeof trust === 'boolean') return trust;
  return trust.some((t) => trustEntryMatches(t, url, spec));
}

type GitSourceEntry = Extract<ScenarioSource, { kind: 'git' }>;

/**
 * Replaces every git source of `config.scenarios` by the folders of its checkout and merges the remote
 * config parts. Problems become issues (exit 2); nothing throws for user errors.
 */
export async function expandRemotes(
  config: ResolvedConfig,
  opts: { configDir: string; cwd: string; configFile: string },
): Promise<{
  config: ResolvedConfig;
  issues: ValidationIssue[];
  notices: string[];
  missingSkills: SkillIssue[];
}> {
  if (!config.scenarios.some((s) => s.kind === 'git'))
    return { config, issues: [], notices: [], missingSkills: [] };
  const merged: ResolvedConfig = {
    ...config,
    env: { pass: [...config.env.pass], values: { ...config.env.values } },
    mcp_servers: { ...config.mcp_servers },
    skills: [...config.skills],
    artifacts: [...config.artifacts],
    adapters: { ...config.adapters },
  };
  const ctx: Ctx = {
    ...opts,
    config: merged,
    issues: [],
    notices: [],
    missingSkills: [],
    stack: [],
    checkouts: new Map(),
  };
  const sources: ScenarioSource[] = [];
  for (const source of config.scenarios) {
    if (source.kind === 'git') sources.push(...(await expandOne(source, 1, ctx)));
    else sources.push(source);
  }
  merged.scenarios = sources;
  const { issues, notices, missingSkills } = ctx;
  return { config: merged, issues, notices, missingSkills };
}

async function expandOne(source: GitSourceEntry, depth: number, ctx: Ctx): Promise<ScenarioSource[]> {
  const issue = (message: string, file = ctx.configFile, path = source.at) =>
    ctx.issues.push({ file, path, message });
  if (ctx.stack.includes(source.url)) {
    issue(`cyclic remote reference: ${[...ctx.stack, source.url].map(shownUrl).join(' → ')}`);
    return [];
  }
  const owner = ctx.checkouts.get(source.dir);
  // `#a/b` and `#a_b` (or file:// repos of one owner/name) map to one folder: one would replace the other.
  if (owner && (owner.url !== source.url || owner.ref !== source.ref)) {
    issue(
      `${source.spec} and ${owner.spec} would share the checkout ${displayPath(source.dir, ctx.cwd)}; ` +
        'use one of them (or name the other by its commit)',
    );
    return [];
  }
  ctx.checkouts.set(source.dir, source);
  let commit: string;
  try {
    const co = await ensureCheckout({ url: source.url, ref: source.ref, dir: source.dir, spec: source.spec });
    commit = co.commit;
    if (co.note) ctx.notices.push(co.note);
  } catch (err) {
    if (err instanceof RemoteError) {
      issue(err.message.startsWith(source.spec) ? err.message.slice(source.spec.length + 2) : err.message);
      return [];
    }
    throw err;
  }
  const shownDir = displayPath(source.dir, ctx.cwd);
  const links = await escapingLinks(source.dir);
  if (links.length) {
    issue(
      `refused ${source.spec}: its checkout (${shownDir}) has symlinks pointing outside it: ${links.slice(0, 5).join(', ')}${links.length > 5 ? `, … (${links.length} in all)` : ''}`,
    );
    return [];
  }
  const trusted = isTrusted(ctx.config.settings.remotes.trust_code, source.url, source.spec);
  const origin: RemoteOrigin = { spec: source.spec, root: source.dir, trusted, commit };
  const remote = await readRemoteConfig(origin, ctx);
  if (!remote) return [];
  ctx.stack.push(source.url);
  try {
    return await remoteSources(remote, origin, depth, ctx);
  } finally {
    ctx.stack.pop();
  }
}

interface RemoteParts {
  file?: string;
  raw: Record<string, unknown>;
}

/** The remote's axis.config (JSON always; a module only when trusted), or `{}` when it has none. */
async function readRemoteConfig(origin: RemoteOrigin, ctx: Ctx): Promise<RemoteParts | undefined> {
  const found = CONFIG_NAMES.map((n) => resolve(origin.root, n)).filter((p) => existsSync(p));
  const shown = (p: string) => displayPath(p, ctx.cwd);
  if (found.length > 1) {
    ctx.issues.push({
      file: shown(found[0]!),
      path: '',
      message: `remote ${origin.spec} has more than one config (${found.map(shown).join(', ')}); expected one`,
    });
    return undefined;
  }
  const file = found[0];
  if (!file) return unreadConfig(origin, ctx);
  if (extname(file) !== '.json' && !origin.trusted) {
    ctx.notices.push(
      `${origin.spec}: its ${shown(file)} was not loaded: it is code from a remote repository, and ${TRUST_SETTING} ` +
        `does not trust this source; using its ./scenarios folder with the defaults (set ${TRUST_SETTING} to run it)`,
    );
    return { raw: {} };
  }
  try {
    const raw = await loadFile(file);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      ctx.issues.push({ file: shown(file), path: '', message: 'expected a config object' });
      return undefined;
    }
    return { file, raw: raw as Record<string, unknown> };
  } catch (err) {
    if (!(err instanceof FileLoadError)) throw err;
    ctx.issues.push({ file: shown(file), path: '', message: err.message });
    return undefined;
  }
}

/**
 * No config AXIS reads: `{}`, unless a YAML (JSONC, JSON5) one shows the remote meant one (its settings
 * would be lost).
 */
function unreadConfig(origin: RemoteOrigin, ctx: Ctx): RemoteParts | undefined {
  const unread = UNREAD_NAMES.map((n) => resolve(origin.root, n)).find((p) => existsSync(p));
  if (!unread) return { raw: {} };
  ctx.issues.push({
    file: displayPath(unread, ctx.cwd),
    path: '',
    message:
      'expected a config AXIS reads (axis.config.json, or TS/JS: axis.config.ts, …), found ' +
      `${unreadFormat(unread)}, which AXIS does not read; convert it to JSON`,
  });
  return undefined;
}

const PARTS = ['scenarios', 'env', 'mcp_servers', 'skills', 'artifacts', 'adapters'] as const;

type Parts = Partial<Record<(typeof PARTS)[number], unknown>>;

async function remoteSources(
  remote: RemoteParts,
  origin: RemoteOrigin,
  depth: number,
  ctx: Ctx,
): Promise<ScenarioSource[]> {
  const file = remote.file ? displayPath(remote.file, ctx.cwd) : displayPath(origin.root, ctx.cwd);
  const parts = parseParts(remote, file, ctx);
  if (!parts) return [];
  await mergeParts(parts, origin, file, ctx);

  const field = (parts.scenarios as string | (string | object)[] | undefined) ?? './scenarios';
  const list = typeof field === 'string' ? [field] : field;
  const out: ScenarioSource[] = [];
  for (const [i, entry] of list.entries()) {
    const at = typeof field === 'string' ? 'scenarios' : `scenarios[${i}]`;
    if (typeof entry !== 'string') {
      ctx.notices.push(
        `${origin.spec}: ${at} is an inline scenario; inline scenarios of a remote config are not loaded`,
      );
      continue;
    }
    out.push(...(await remoteEntry(entry, at, { remote, origin, depth, file }, ctx)));
  }
  return out;
}

/** The remote config's parts, each checked; undefined (with the issues added) when any is invalid. */
function parseParts(remote: RemoteParts, file: string, ctx: Ctx): Parts | undefined {
  const parts: Parts = {};
  let ok = true;
  for (const key of PARTS) {
    if (remote.raw[key] === undefined) continue;
    const parsed = configSchema.shape[key].safeParse(remote.raw[key], PARSE_FILE);
    if (!parsed.success) {
      ok = false;
      ctx.issues.push(
        ...translateIssues(parsed.error.issues).map((i) => ({
          file,
          path: i.path ? `${key}${i.path.startsWith('[') ? '' : '.'}${i.path}` : key,
          message: i.message,
        })),
      );
    } else parts[key] = parsed.data;
  }
  return ok ? parts : undefined;
}

interface EntryOf {
  remote: RemoteParts;
  origin: RemoteOrigin;
  depth: number;
  /** The remote's config file, as issues name it. */
  file: string;
}

/** One entry of a remote's `scenarios`: a nested remote, or a glob, folder or file inside the checkout. */
async function remoteEntry(entry: string, at: string, of: EntryOf, ctx: Ctx): Promise<ScenarioSource[]> {
  const { remote, origin, file } = of;
  const problem = (message: string): ScenarioSource[] => {
    ctx.issues.push({ file, path: at, message });
    return [];
  };
  const parsed = parseSource(entry);
  if (parsed.kind === 'invalid') return problem(parsed.reason);
  if (parsed.kind === 'git') {
    const max = ctx.config.settings.remotes.maxDepth;
    if (of.depth >= max)
      return problem(
        `remote ${origin.spec} references another remote (${shownUrl(entry)}); settings.remotes.maxDepth is ${max}, so nested remotes are not followed (raise it to allow them)`,
      );
    const nested: GitSourceEntry = {
      kind: 'git',
      spec: shownUrl(entry),
      at,
      url: parsed.url,
      dir: resolve(ctx.configDir, checkoutDir(parsed)),
      ...(parsed.ref ? { ref: parsed.ref } : {}),
    };
    return expandOne(nested, of.depth + 1, { ...ctx, configFile: file });
  }
  const path = parsed.kind === 'glob' ? picomatch.scan(entry).base : parsed.path;
  const abs = resolve(origin.root, path);
  if (!(await insideDir(abs, origin.root)))
    return problem(
      `refused: ${JSON.stringify(entry)} points outside the remote's checkout (${displayPath(origin.root, ctx.cwd)})`,
    );
  if (parsed.kind === 'glob')
    return [
      { kind: 'glob', spec: entry, at, pattern: resolve(origin.root, entry), base: abs, remote: origin },
    ];
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) {
    if (remote.raw.scenarios !== undefined || remote.file)
      return problem(`expected an existing file or directory in the remote, found ${JSON.stringify(entry)}`);
    return problem(`remote ${origin.spec} has no axis.config and no ./scenarios folder: nothing to discover`);
  }
  if (stat.isDirectory()) return [{ kind: 'dir', spec: entry, at, path: abs, remote: origin }];
  return [{ kind: 'file', spec: entry, at, path: abs, remote: origin }];
}

/** Parent wins on every key; remote skill sources are read as the remote's (skill-sources.ts). */
async function mergeParts(parts: Parts, origin: RemoteOrigin, file: string, ctx: Ctx): Promise<void> {
  const c = ctx.config;
  const env = parts.env as string[] | Record<string, string> | undefined;
  if (Array.isArray(env)) c.env.pass.push(...env.filter((n) => !c.env.pass.includes(n)));
  else if (env) for (const [k, v] of Object.entries(env)) if (!(k in c.env.values)) c.env.values[k] = v;
  const mcp = resolveMcp(parts.mcp_servers as Parameters<typeof resolveMcp>[0]);
  for (const [name, server] of Object.entries(mcp))
    if (!(name in c.mcp_servers)) c.mcp_servers[name] = server;
  for (const a of (parts.artifacts as string[] | undefined) ?? [])
    if (!c.artifacts.includes(a)) c.artifacts.push(a);
  for (const [i, s] of ((parts.skills as string[] | undefined) ?? []).entries()) {
    const read = await remoteSkillSource(s, origin.root);
    if ('problem' in read) ctx.issues.push({ file, path: `skills[${i}]`, message: read.problem });
    else if (!c.skills.includes(read.source)) {
      c.skills.push(read.source);
      const missing = missingSkillDirs([read.source], 'skills', origin.root, ctx.configDir);
      ctx.missingSkills.push(...missing.map((m) => ({ file, ...m, path: `skills[${i}]` })));
    }
  }
  const adapters = Object.entries((parts.adapters as Record<string, string> | undefined) ?? {});
  if (adapters.length && !origin.trusted) {
    ctx.notices.push(
      `${origin.spec}: adapters ${adapters.map(([n]) => `"${n}"`).join(', ')} not loaded: remote code runs only when ${TRUST_SETTING} trusts this source`,
    );
    return;
  }
  for (const [name, path] of adapters) {
    const abs = resolve(origin.root, path);
    if (!(await insideDir(abs, origin.root))) {
      ctx.issues.push({
        file,
        path: `adapters.${name}`,
        message: `refused: ${JSON.stringify(path)} points outside the remote's checkout`,
      });
    } else if (!(name.toLowerCase() in c.adapters)) c.adapters[name.toLowerCase()] = abs;
  }
}
