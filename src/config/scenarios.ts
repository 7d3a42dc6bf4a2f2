/**
 * Scenario discovery: turn `scenarios` sources into files (scenario-collect.ts loads and validates them).
 * Files and folders with a leading `_` are left out; a folder that cannot be read is an issue, never a
 * silent skip.
 */
import { existsSync, readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import type { ValidationIssue } from '../util/errors.js';
import { fsReason } from '../util/input-file.js';
import { unreadFormat as formatNotRead } from './find.js';
import type { PathMessage } from './issues.js';
import type { AxisConfig, InlineScenarioConfig } from './schema.js';
import { checkoutDir, parseSource, shownUrl } from './sources.js';
import type { RemoteOrigin, ScenarioSource } from './types.js';

export const SCENARIO_EXTENSIONS = ['.json', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'];

/** Relative to cwd with `/` separators, for messages. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

const toPosix = (p: string) => p.split(sep).join('/');
const stripExt = (p: string) => p.slice(0, p.length - extname(p).length);

/** Not a scenario whatever its extension: helpers (`_x`), hidden files, type declarations, configs. */
const passedOver = (name: string) =>
  name.startsWith('_') ||
  name.startsWith('.') ||
  /\.d\.[mc]?ts$/.test(name) ||
  /^axis\.config\.[a-z]+$/.test(name);

function isScenarioFile(name: string): boolean {
  return !passedOver(name) && SCENARIO_EXTENSIONS.includes(extname(name).toLowerCase());
}

/** What a file where scenarios are looked for is when it is likely a scenario AXIS does not read (YAML …). */
const unreadFormat = (name: string): string | null => (passedOver(name) ? null : formatNotRead(name));

/** The extensions as a sentence says them: `.json, …, .mts or .cts`. */
export const SHOWN_EXTENSIONS = `${SCENARIO_EXTENSIONS.slice(0, -1).join(', ')} or ${SCENARIO_EXTENSIONS.at(-1)}`;

/** A YAML (JSONC, JSON5) file found beside the scenarios: said, never passed over without a word. */
function unreadIssue(file: string, cwd: string): ValidationIssue {
  return {
    file: displayPath(file, cwd),
    path: '',
    message:
      `expected a scenario file (${SHOWN_EXTENSIONS}), found ${unreadFormat(basename(file))}, which AXIS does not read; convert it to JSON, ` +
      `or name it _${basename(file)} (or put it in a folder starting with _) to keep it as data`,
  };
}

interface Walked {
  files: string[];
  /** YAML (JSONC, JSON5) files where a scenario file would have been taken. */
  unread: string[];
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
  out: Walked = { files: [], unread: [], problems: [] },
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
      else if (unreadFormat(entry.name)) out.unread.push(full);
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
      const source: ScenarioSource = { kind: 'git', spec: shownUrl(entry), at: path, url: parsed.url, dir };
      if (parsed.ref) source.ref = parsed.ref;
      sources.push(source);
    } else if (parsed.kind === 'glob' && !existsSync(resolve(configDir, entry))) {
      const base = picomatch.scan(entry).base;
      sources.push({ kind: 'glob', spec: entry, at: path, pattern: entry, base: resolve(configDir, base) });
    } else {
      // A folder or file that exists is itself, even when its name looks like a glob (`tests[1]`).
      const abs = resolve(configDir, parsed.kind === 'glob' ? entry : parsed.path);
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

/** A scenario file a source names, or one found under a folder or glob. */
export interface FoundFile {
  file: string;
  key: string;
  remote?: RemoteOrigin;
  /** Found by walking a folder or a glob (not named on its own): a helper module there is skipped. */
  walked?: boolean;
}

/**
 * The files and inline scenarios the sources name, in order; a folder that cannot be walked is an
 * issue.
 */
export async function findScenarioFiles(
  sources: readonly ScenarioSource[],
  configDir: string,
  cwd: string,
  configFile = '<config>',
): Promise<{
  files: FoundFile[];
  inline: { index: number; scenario: InlineScenarioConfig }[];
  issues: ValidationIssue[];
}> {
  const issues: ValidationIssue[] = [];
  const unread = new Set<string>(); // a file two sources reach is said once
  const notRead = (file: string) => {
    if (!unread.has(file)) issues.push(unreadIssue(file, cwd));
    unread.add(file);
  };
  const walked = (root: string, remote?: RemoteOrigin): FoundFile[] => {
    const found = walk(root, cwd);
    for (const p of found.problems)
      issues.push({ file: displayPath(p.dir, cwd), path: '', message: p.message });
    found.unread.forEach(notRead);
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
      const found = await globbed(source, configDir, notRead);
      files.push(...found.files);
      // A typo in a glob would otherwise drop its scenarios without a word, as a missing path would not.
      if (found.files.length === 0 && !found.unread)
        issues.push({
          file: source.remote ? displayPath(source.remote.root, cwd) : configFile,
          path: source.at,
          message: `the glob ${JSON.stringify(source.spec)} matches no scenario file (${SCENARIO_EXTENSIONS.join(', ')}; helpers starting with "_" do not count)`,
        });
    }
    // Git sources were replaced by their checkouts' folders (config/remotes.ts) before discovery; one left
    // here belongs to a config too broken to fetch anything for.
  }
  return { files, inline, issues };
}

/** The scenario files a glob matches; each YAML (JSONC, JSON5) file it matches goes to `notRead`. */
async function globbed(
  source: Extract<ScenarioSource, { kind: 'glob' }>,
  configDir: string,
  notRead: (file: string) => void,
): Promise<{ files: FoundFile[]; unread: boolean }> {
  const matches = await glob(source.pattern, {
    cwd: source.remote?.root ?? configDir,
    absolute: true,
    ignore: ['**/node_modules/**'],
  });
  const out = { files: [] as FoundFile[], unread: false };
  for (const f of matches.sort().map((m) => resolve(m))) {
    const helper = toPosix(relative(source.base, f))
      .split('/')
      .some((p) => p.startsWith('_'));
    if (helper) continue;
    if (isScenarioFile(basename(f)))
      out.files.push({ file: f, key: keyOf(f, source.base), walked: true, remote: source.remote });
    else if (unreadFormat(basename(f))) {
      out.unread = true;
      notRead(f);
    }
  }
  return out;
}

function keyOf(file: string, root: string): string {
  return stripExt(toPosix(relative(root, file)));
}
