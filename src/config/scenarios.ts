/**
 * Scenario discovery: turn `scenarios` sources into files, load and validate every file, and collect
 * every problem of every file. A file in a scenarios folder that does not parse is an error, never a
 * silent skip; files and folders with a leading `_` are left out, and a module found in a folder that
 * exports no scenario (a helper such as `shared/variants.ts`) is skipped with a notice.
 */
import { existsSync, readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { fsReason } from '../util/input-file.js';
import { translateIssues, type PathMessage } from './issues.js';
import { FileLoadError, loadFile, MODULE_EXTENSIONS } from './load-file.js';
import { resolveScenario, type ScenarioContext } from './scenario-resolve.js';
import { PARSE_FILE } from './schema-helpers.js';
import { scenarioSchema } from './scenario-schema.js';
import type { AxisConfig, InlineScenarioConfig, ScenarioConfig } from './schema.js';
import { checkoutDir, parseSource } from './sources.js';
import type { RemoteOrigin, ResolvedConfig, ResolvedScenario, ScenarioSource } from './types.js';

export const SCENARIO_EXTENSIONS = ['.json', '.js', '.mjs', '.ts', '.mts'];

/** Relative to cwd with `/` separators, for messages. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

const toPosix = (p: string) => p.split(sep).join('/');
const stripExt = (p: string) => p.slice(0, p.length - extname(p).length);

function isScenarioFile(name: string): boolean {
  if (name.startsWith('_') || name.startsWith('.') || name.endsWith('.d.ts') || name.endsWith('.d.mts'))
    return false;
  if (/^axis\.config\.[a-z]+$/.test(name)) return false;
  return SCENARIO_EXTENSIONS.includes(extname(name).toLowerCase());
}

interface Walked {
  files: string[];
  /** Absolute folder paths with a problem (a symlink loop, an unreadable folder). */
  problems: { dir: string; message: string }[];
}

/**
 * Scenario files under `dir`, sorted. Symlinked folders are followed, except one leading back to a
 * folder being walked (a loop), which is a problem rather than an endless walk.
 */
function walk(
  dir: string,
  cwd: string,
  out: Walked = { files: [], problems: [] },
  open = new Map<string, string>(),
): Walked {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    out.problems.push({ dir, message: `could not read the folder: ${fsReason(err)}` });
    return out;
  }
  open.set(realpathOr(dir), dir);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(dir, entry.name);
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(full));
    if (!isDir) {
      if (isScenarioFile(entry.name)) out.files.push(full);
      continue;
    }
    if (entry.name.startsWith('.') || entry.name.startsWith('_') || entry.name === 'node_modules') continue;
    const back = open.get(realpathOr(full));
    if (back !== undefined) {
      out.problems.push({
        dir: full,
        message: `expected a folder of scenarios, found a symlink back to ${displayPath(back, cwd)} (a loop); remove it, or name it _${entry.name} to skip it`,
      });
      continue;
    }
    walk(full, cwd, out, new Map(open));
  }
  return out;
}

/**
 * `owner/repo` means GitHub only when nothing local answers to it: neither the path nor its first folder
 * exists, and it does not end like a scenario file (`./owner/repo` is always local).
 */
export function mayBeShorthand(entry: string, configDir: string): boolean {
  const body = entry.replace(/#.*$/, '');
  const first = body.split('/')[0] ?? body;
  return (
    !existsSync(resolve(configDir, body)) &&
    !existsSync(resolve(configDir, first)) &&
    !SCENARIO_EXTENSIONS.includes(extname(body).toLowerCase())
  );
}

/** Follows symlinks; false for anything that cannot be stat'ed (a loop, a dangling link: loadFile says why). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Classifies the `scenarios` field and checks that paths exist; problems are reported at `scenarios[i]`. */
export function resolveSources(
  field: AxisConfig['scenarios'],
  configDir: string,
): { sources: ScenarioSource[]; issues: PathMessage[] } {
  const list = field === undefined ? ['./scenarios'] : typeof field === 'string' ? [field] : field;
  const sources: ScenarioSource[] = [];
  const issues: PathMessage[] = [];
  list.forEach((entry, index) => {
    const path = typeof field === 'string' || field === undefined ? 'scenarios' : `scenarios[${index}]`;
    if (typeof entry !== 'string') {
      sources.push({ kind: 'inline', index, scenario: entry as InlineScenarioConfig });
      return;
    }
    const parsed = parseSource(entry, { shorthand: mayBeShorthand(entry, configDir) });
    if (parsed.kind === 'invalid') {
      issues.push({ path, message: parsed.reason });
    } else if (parsed.kind === 'git') {
      const dir = resolve(configDir, checkoutDir(parsed));
      const source: ScenarioSource = { kind: 'git', spec: entry, at: path, url: parsed.url, dir };
      if (parsed.ref) source.ref = parsed.ref;
      sources.push(source);
    } else if (parsed.kind === 'glob') {
      const base = picomatch.scan(entry).base;
      sources.push({ kind: 'glob', spec: entry, at: path, pattern: entry, base: resolve(configDir, base) });
    } else {
      const abs = resolve(configDir, parsed.path);
      let stat: Stats | undefined;
      try {
        stat = statSync(abs, { throwIfNoEntry: false });
      } catch (err) {
        issues.push({ path, message: `could not read ${JSON.stringify(entry)}: ${fsReason(err)}` });
        return;
      }
      if (!stat) {
        issues.push({
          path,
          message: `expected an existing file or directory, found ${JSON.stringify(entry)} (${abs} does not exist)`,
        });
      } else if (stat.isDirectory()) {
        sources.push({ kind: 'dir', spec: entry, at: path, path: abs });
      } else if (!SCENARIO_EXTENSIONS.includes(extname(abs).toLowerCase())) {
        issues.push({
          path,
          message: `expected a scenario file (${SCENARIO_EXTENSIONS.join(', ')}), found ${JSON.stringify(entry)}`,
        });
      } else {
        sources.push({ kind: 'file', spec: entry, at: path, path: abs });
      }
    }
  });
  return { sources, issues };
}

export interface DiscoverOptions {
  configDir: string;
  /** Issue file paths are shown relative to this; default process.cwd(). */
  cwd?: string;
  /** The config file, for problems with sources and inline scenarios. */
  configFile?: string;
  /** Names a scenario's `agents` filter may use; unset = not checked. */
  knownAgents?: readonly string[];
}

interface FoundFile {
  file: string;
  key: string;
  remote?: RemoteOrigin;
  /** Found by walking a folder or a glob (not named on its own): a helper module there is skipped. */
  walked?: boolean;
}

/** Fields that make a module's default export a scenario rather than a helper's data. */
const SCENARIO_MARKERS = ['name', 'prompt', 'judge', 'rubric', 'checks', 'variants'];

/** Why a module found in a scenarios folder is a helper (no scenario export), or undefined. */
export function helperReason(file: string, raw: unknown, err?: unknown): string | undefined {
  if (!(MODULE_EXTENSIONS as readonly string[]).includes(extname(file).toLowerCase())) return undefined;
  if (err instanceof FileLoadError) {
    return err.message.startsWith('expected a default export') ? 'it has no default export' : undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return `its default export is not a scenario object`;
  return SCENARIO_MARKERS.some((k) => k in raw)
    ? undefined
    : `its default export has none of ${SCENARIO_MARKERS.map((k) => `"${k}"`).join(', ')}`;
}

type Settings = Pick<ResolvedConfig['settings'], 'limits' | 'simulate'>;

/** Loads every scenario of every source; never throws for user errors, returns them as issues. */
export async function collectScenarios(
  sources: readonly ScenarioSource[],
  settings: Settings,
  options: DiscoverOptions,
): Promise<{ scenarios: ResolvedScenario[]; issues: ValidationIssue[]; notices: string[] }> {
  const cwd = options.cwd ?? process.cwd();
  const notices: string[] = [];
  const configFile = options.configFile ? displayPath(options.configFile, cwd) : '<config>';
  const issues: ValidationIssue[] = [];
  const tapesDir = settings.simulate ? settings.simulate.tapes : resolve(options.configDir, 'tapes');
  const base = {
    configDir: options.configDir,
    tapesDir,
    scenarioLimits: settings.limits.scenario,
    requireTapes: settings.simulate !== false,
    ...(options.knownAgents ? { knownAgents: options.knownAgents } : {}),
  };

  const walked = (root: string, remote?: RemoteOrigin): FoundFile[] => {
    const found = walk(root, cwd);
    for (const p of found.problems)
      issues.push({ file: displayPath(p.dir, cwd), path: '', message: p.message });
    return found.files.map((f) => ({ file: f, key: keyOf(f, root), walked: true, remote }));
  };
  const files: FoundFile[] = [];
  const inline: { index: number; scenario: InlineScenarioConfig }[] = [];
  for (const source of sources) {
    if (source.kind === 'inline') inline.push(source);
    else if (source.kind === 'file')
      files.push({ file: source.path, key: stripExt(basename(source.path)), remote: source.remote });
    else if (source.kind === 'dir') files.push(...walked(source.path, source.remote));
    else if (source.kind === 'glob') {
      const matches = await glob(source.pattern, {
        cwd: source.remote?.root ?? options.configDir,
        absolute: true,
        ignore: ['**/node_modules/**'],
      });
      for (const f of matches.sort()) {
        if (
          isScenarioFile(basename(f)) &&
          !toPosix(relative(source.base, f))
            .split('/')
            .some((p) => p.startsWith('_'))
        ) {
          files.push({
            file: resolve(f),
            key: keyOf(resolve(f), source.base),
            walked: true,
            remote: source.remote,
          });
        }
      }
    }
    // Git sources were replaced by their checkouts' folders (config/remotes.ts) before discovery; one left
    // here belongs to a config too broken to fetch anything for.
  }

  const all: { scenario: ResolvedScenario; origin: string }[] = [];
  const seenFiles = new Map<string, string>();
  const untrusted = new Map<string, string[]>();
  for (const { file, key, walked, remote } of files) {
    if (seenFiles.get(file) === key) continue; // the same file reached by two overlapping sources
    seenFiles.set(file, key);
    const shown = displayPath(file, cwd);
    if (remote && !remote.trusted && isModule(file)) {
      untrusted.set(remote.spec, [...(untrusted.get(remote.spec) ?? []), shown]);
      continue;
    }
    let raw: unknown;
    let failure: unknown;
    try {
      raw = await loadFile(file);
    } catch (err) {
      if (!(err instanceof FileLoadError)) throw err;
      failure = err;
    }
    const helper = walked ? helperReason(file, raw, failure) : undefined;
    if (helper) {
      notices.push(`${shown}: skipped, not a scenario: ${helper} (helper modules are fine here)`);
      continue;
    }
    if (failure instanceof FileLoadError) {
      issues.push({ file: shown, path: failure.path, message: failure.message });
      continue;
    }
    const parsed = scenarioSchema.safeParse(raw, PARSE_FILE);
    if (!parsed.success) {
      issues.push(...translateIssues(parsed.error.issues).map((i) => ({ file: shown, ...i })));
      continue;
    }
    const ctx: ScenarioContext = { ...base, key, file, pathPrefix: '' };
    const result = resolveScenario(parsed.data as ScenarioConfig, ctx);
    issues.push(...result.issues.map((i) => ({ file: shown, ...i })));
    if (remote)
      issues.push(...confineCopies(result.scenarios, remote.root).map((i) => ({ file: shown, ...i })));
    if (remote && !remote.trusted) {
      for (const s of result.scenarios.filter((x) => isModule(x.tape) && x.tape.startsWith(remote.root))) {
        issues.push({
          file: shown,
          path: 'tape',
          message: `${displayPath(s.tape, cwd)} is code from a remote repository; use a .json tape, or trust the source with settings.remotes.trust_code`,
        });
      }
    }
    all.push(...result.scenarios.map((scenario) => ({ scenario, origin: shown })));
  }
  for (const { index, scenario } of inline) {
    const ctx: ScenarioContext = { ...base, key: scenario.key, pathPrefix: `scenarios[${index}]` };
    const result = resolveScenario(scenario, ctx);
    issues.push(...result.issues.map((i) => ({ file: configFile, ...i })));
    all.push(
      ...result.scenarios.map((s) => ({ scenario: s, origin: `${configFile} (scenarios[${index}])` })),
    );
  }

  for (const [spec, list] of untrusted) {
    notices.push(
      `${spec}: ${list.length} TypeScript/JavaScript scenario file${list.length === 1 ? '' : 's'} not loaded (${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''}): ` +
        'remote code runs only when settings.remotes.trust_code trusts the source',
    );
  }

  const byKey = new Map<string, string>();
  for (const { scenario, origin } of all) {
    const first = byKey.get(scenario.key);
    if (first !== undefined) {
      issues.push({
        file: origin,
        path: '',
        message: `duplicate scenario key "${scenario.key}" (also defined by ${first})`,
      });
    } else byKey.set(scenario.key, origin);
  }
  const scenarios = all.map((a) => a.scenario).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { scenarios, issues, notices };
}

const isModule = (file: string) =>
  (MODULE_EXTENSIONS as readonly string[]).includes(extname(file).toLowerCase());

function keyOf(file: string, root: string): string {
  return stripExt(toPosix(relative(root, file)));
}

/** Public API: every scenario of a resolved config, or a ConfigError listing every problem. */
export async function discoverScenarios(
  config: ResolvedConfig,
  configDir: string,
  options: { cwd?: string; configFile?: string } = {},
): Promise<ResolvedScenario[]> {
  const { scenarios, issues } = await collectScenarios(config.scenarios, config.settings, {
    configDir,
    ...options,
  });
  if (issues.length > 0) throw new ConfigError(issues);
  return scenarios;
}

/**
 * A remote scenario's `copy` actions read from its own checkout, never from the parent's config dir:
 * each gets the checkout as `root`, and a `match` whose base leaves the checkout is refused here (the
 * runner checks the real paths of the files again when it copies).
 */
function confineCopies(scenarios: ResolvedScenario[], root: string): { path: string; message: string }[] {
  const out = new Map<string, string>();
  for (const s of scenarios) {
    for (const phase of ['setup', 'teardown'] as const) {
      s[phase].forEach((a, i) => {
        if (a.action !== 'copy') return;
        a.root = root;
        const base = resolve(root, picomatch.scan(a.match.replace(/\\/g, '/')).base || '.');
        if (isAbsolute(a.match) || (base !== root && !base.startsWith(`${root}${sep}`)))
          out.set(
            `${phase}[${i}].match`,
            `refused: ${JSON.stringify(a.match)} points outside the remote's checkout (copies of a remote scenario read from its checkout)`,
          );
      });
    }
  }
  return [...out].map(([path, message]) => ({ path, message }));
}
