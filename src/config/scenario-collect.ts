/**
 * Loading the scenarios the sources name (scenarios.ts finds the files): load and validate every file,
 * and collect every problem of every file. A file in a scenarios folder that does not parse is an error,
 * never a silent skip; a module found in a folder that exports no scenario (a helper such as
 * `shared/variants.ts`) is skipped with a notice; remote code is refused unless trusted.
 */
import { extname, isAbsolute, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ConfigError, type ValidationIssue } from '../util/errors.js';
import { NAME_CONTROL } from '../util/safe-text.js';
import { translateIssues } from './issues.js';
import { FileLoadError, loadFile, MODULE_EXTENSIONS } from './load-file.js';
import { resolveScenario, type ScenarioContext } from './scenario-resolve.js';
import { PARSE_FILE } from './schema-helpers.js';
import { quoted } from '../util/describe-value.js';
import { scenarioSchema } from './scenario-schema.js';
import type { ScenarioConfig } from './schema.js';
import { displayPath, findScenarioFiles, type FoundFile } from './scenarios.js';
import { remoteSkillSource } from './skill-sources.js';
import type { ResolvedConfig, ResolvedScenario, ScenarioSource } from './types.js';

export interface DiscoverOptions {
  configDir: string;
  /** Issue file paths are shown relative to this; default process.cwd(). */
  cwd?: string;
  /** The config file, for problems with sources and inline scenarios. */
  configFile?: string;
  /** Names a scenario's `agents` filter may use; unset = not checked. */
  knownAgents?: readonly string[];
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
  const configFile = options.configFile ? displayPath(options.configFile, cwd) : '<config>';
  const tapesDir = settings.simulate ? settings.simulate.tapes : resolve(options.configDir, 'tapes');
  const base = {
    configDir: options.configDir,
    tapesDir,
    scenarioLimits: settings.limits.scenario,
    requireTapes: settings.simulate !== false,
    ...(options.knownAgents ? { knownAgents: options.knownAgents } : {}),
  };
  const { files, inline, issues } = await findScenarioFiles(sources, options.configDir, cwd, configFile);
  const loaded: Loaded = { all: [], issues, notices: [], untrusted: new Map() };
  const seenFiles = new Map<string, string>();
  for (const found of files) {
    if (seenFiles.get(found.file) === found.key) continue; // the same file reached by two overlapping sources
    seenFiles.set(found.file, found.key);
    // The key is shown in terminals and reports: a file name from a remote repo must not carry escapes.
    if (NAME_CONTROL.test(found.key)) {
      const file = found.remote ? displayPath(found.remote.root, cwd) : configFile;
      const shown = quoted(displayPath(found.file, found.remote?.root ?? cwd));
      issues.push({
        file,
        path: 'scenarios',
        message: `the scenario file ${shown} has control characters in its name; rename it`,
      });
      continue;
    }
    await loadScenarioFile(found, base, cwd, loaded);
  }
  for (const { index, scenario } of inline) {
    const ctx: ScenarioContext = {
      ...base,
      key: scenario.key,
      pathPrefix: `scenarios[${index}]`,
      issueFile: configFile,
    };
    const result = resolveScenario(scenario, ctx);
    issues.push(...result.issues.map((i) => ({ file: configFile, ...i })));
    const faulty = result.issues.length > 0;
    loaded.all.push(
      ...result.scenarios.map((s) => ({
        scenario: s,
        origin: `${configFile} (scenarios[${index}])`,
        faulty,
      })),
    );
  }
  const notices = [...loaded.notices, ...untrustedNotices(loaded.untrusted)];
  issues.push(...duplicateKeys(loaded.all));
  // A scenario with problems of its own is not handed on, even beside other problems: its tape or skill
  // paths may be the refused ones (outside a remote's checkout, a remote's code), which nothing may read.
  const scenarios = loaded.all
    .filter((a) => !a.faulty)
    .map((a) => a.scenario)
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { scenarios, issues, notices };
}

/** What loading the files gives so far. */
interface Loaded {
  /** `faulty`: its file had problems of its own (its key still counts for duplicates). */
  all: { scenario: ResolvedScenario; origin: string; faulty: boolean }[];
  issues: ValidationIssue[];
  notices: string[];
  /** Module files of untrusted remotes, by remote: not loaded. */
  untrusted: Map<string, string[]>;
}

/** One scenario file: loaded, checked, resolved; what it gives and what is wrong with it go to `out`. */
async function loadScenarioFile(
  { file, key, walked, remote }: FoundFile,
  base: Omit<ScenarioContext, 'key' | 'file' | 'pathPrefix'>,
  cwd: string,
  out: Loaded,
): Promise<void> {
  const { issues } = out;
  const shown = displayPath(file, cwd);
  if (remote && !remote.trusted && isModule(file)) {
    out.untrusted.set(remote.spec, [...(out.untrusted.get(remote.spec) ?? []), shown]);
    return;
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
    out.notices.push(`${shown}: skipped, not a scenario: ${helper} (helper modules are fine here)`);
    return;
  }
  if (failure instanceof FileLoadError) {
    issues.push({ file: shown, path: failure.path, message: failure.message });
    return;
  }
  const parsed = scenarioSchema.safeParse(raw, PARSE_FILE);
  if (!parsed.success) {
    issues.push(...translateIssues(parsed.error.issues).map((i) => ({ file: shown, ...i })));
    return;
  }
  // A remote scenario's skill paths are its checkout's (confineSkills makes them absolute).
  const ctx: ScenarioContext = {
    ...base,
    key,
    file,
    pathPrefix: '',
    issueFile: shown,
    ...(remote && { configDir: remote.root, projectDir: base.configDir }),
  };
  const before = issues.length;
  const result = resolveScenario(parsed.data as ScenarioConfig, ctx);
  issues.push(...result.issues.map((i) => ({ file: shown, ...i })));
  if (remote) {
    const confined = [
      ...confineCopies(result.scenarios, remote.root),
      ...confineTapes(result.scenarios, remote.root, base.tapesDir),
      ...(await confineSkills(result.scenarios, remote.root)),
    ];
    issues.push(...confined.map((i) => ({ file: shown, ...i })));
  }
  if (remote && !remote.trusted) {
    // Any tape but .json is loaded as a module (the simulator also takes .cts and .cjs): code.
    const isCode = (tape: string) => extname(tape).toLowerCase() !== '.json';
    for (const s of result.scenarios.filter((x) => isCode(x.tape) && x.tape.startsWith(remote.root))) {
      issues.push({
        file: shown,
        path: 'tape',
        message: `${displayPath(s.tape, cwd)} is code from a remote repository; use a .json tape, or trust the source with settings.remotes.trust_code`,
      });
    }
  }
  const faulty = issues.length > before;
  out.all.push(...result.scenarios.map((scenario) => ({ scenario, origin: shown, faulty })));
}

function untrustedNotices(untrusted: Map<string, string[]>): string[] {
  return [...untrusted].map(
    ([spec, list]) =>
      `${spec}: ${list.length} TypeScript/JavaScript scenario file${list.length === 1 ? '' : 's'} not loaded (${list.slice(0, 5).join(', ')}${list.length > 5 ? ', …' : ''}): ` +
      'remote code runs only when settings.remotes.trust_code trusts the source',
  );
}

/** A key defined twice is an issue at the second definition, naming the first. */
function duplicateKeys(all: Loaded['all']): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
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
  return issues;
}

const isModule = (file: string) =>
  (MODULE_EXTENSIONS as readonly string[]).includes(extname(file).toLowerCase());

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
 * A remote scenario's tape is read (a module tape even run) by AXIS: it must be in the remote's checkout,
 * or the project's own tapes folder (where a remote scenario's tape is looked for by default).
 */
function confineTapes(scenarios: ResolvedScenario[], root: string, tapesDir: string) {
  const inside = (p: string, dir: string) => p === dir || p.startsWith(`${dir}${sep}`);
  const outside = scenarios.find((s) => !inside(s.tape, root) && !inside(s.tape, tapesDir));
  if (!outside) return [];
  return [
    {
      path: 'tape',
      message: `refused: ${JSON.stringify(outside.tape)} points outside the remote's checkout`,
    },
  ];
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

/** A remote scenario's skill sources, read as the remote's (skill-sources.ts): a local one made absolute. */
async function confineSkills(scenarios: ResolvedScenario[], root: string) {
  const out = new Map<string, string>();
  for (const s of scenarios) {
    for (const [i, source] of s.skills.entries()) {
      const read = await remoteSkillSource(source, root);
      if ('problem' in read) out.set(`skills[${i}]`, read.problem);
      else s.skills[i] = read.source;
    }
  }
  return [...out].map(([path, message]) => ({ path, message }));
}
