/**
 * How a skill source string is read (docs/configuration.md#skills), shared by validation and the run so
 * both agree: a local folder (`./…`, `../…`, absolute, or a relative path that exists, which the
 * `owner/repo` shorthand never shadows, as for scenarios), a git source, or a problem.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { insideDir } from './git.js';
import type { PathMessage } from './issues.js';
import { checkoutDir, parseSource, shownUrl, type GitSource } from './sources.js';

/** Where git skill sources are checked out, relative to the project's config dir (runner/skills.ts). */
export const SKILLS_CACHE = '.axis/skills-cache';

/** A skill source the run could not install; `fetched`: seen in the cache, which --refresh-skills renews. */
export interface SkillProblem extends PathMessage {
  fetched?: true;
}

export type SkillSource =
  { kind: 'local'; dir: string } | { kind: 'git'; git: GitSource } | { kind: 'invalid'; reason: string };

const explicitlyLocal = (s: string) =>
  s.startsWith('./') || s.startsWith('../') || s === '.' || isAbsolute(s);

export function classifySkillSource(source: string, configDir: string): SkillSource {
  const dir = resolve(configDir, source);
  if (explicitlyLocal(source) || (!source.includes('://') && existsSync(dir))) return { kind: 'local', dir };
  const parsed = parseSource(source, { shorthand: true });
  if (parsed.kind === 'git') return { kind: 'git', git: parsed };
  return {
    kind: 'invalid',
    reason:
      `expected a local path (./...), owner/repo, github:owner/repo or a git URL, found ${JSON.stringify(shownUrl(source))}` +
      (parsed.kind === 'invalid' ? ` (${parsed.reason})` : ''),
  };
}

/**
 * Sources of no known form (`myskill`, `x y`), which the run would refuse. Whether a local folder exists
 * and holds a skill matters only for what a run selects: `missingSkillDirs`, reported after planning
 * (needed-files.ts).
 */
export function skillSourceIssues(
  sources: readonly string[] | undefined,
  path: string,
  configDir: string,
): PathMessage[] {
  const out: PathMessage[] = [];
  (sources ?? []).forEach((source, i) => {
    const s = classifySkillSource(source, configDir);
    if (s.kind === 'invalid') out.push({ path: `${path}[${i}]`, message: s.reason });
  });
  return out;
}

/**
 * A skill source written in a remote (its config, one of its scenarios) as the project reads it: a local
 * folder is the checkout's, made absolute (refused when it leaves the checkout), and `owner/repo` becomes
 * `github:owner/repo`, so no folder of the project stands in for either.
 */
export async function remoteSkillSource(
  source: string,
  root: string,
): Promise<{ source: string } | { problem: string }> {
  const kind = classifySkillSource(source, root);
  if (kind.kind === 'invalid') return { problem: kind.reason };
  if (kind.kind === 'git') return { source: source.includes(':') ? source : `github:${source}` };
  if (!(await insideDir(kind.dir, root)))
    return { problem: `refused: ${JSON.stringify(source)} points outside the remote's checkout` };
  return { source: kind.dir };
}

/**
 * Sources the run could not install, each at `path[i]`: a local folder missing or with no skill in it
 * (no SKILL.md, nor a pack's, see skillDirs), or a git source already fetched into the skills cache under
 * `projectDir` that holds none. A git source not fetched yet is not checked: that needs the network.
 */
export function missingSkillDirs(
  sources: readonly string[],
  path: string,
  configDir: string,
  projectDir = configDir,
): SkillProblem[] {
  const out: SkillProblem[] = [];
  sources.forEach((source, i) => {
    const s = classifySkillSource(source, configDir);
    const at = `${path}[${i}]`;
    if (s.kind === 'local') {
      const message = skillDirProblem(s.dir);
      if (message) out.push({ path: at, message });
    } else if (s.kind === 'git') {
      const message = fetchedSkillProblem(source, s.git, projectDir);
      if (message) out.push({ path: at, message, fetched: true });
    }
  });
  return out;
}

/** The cached checkout of a git source when it holds no skill (what a run without --refresh-skills uses). */
function fetchedSkillProblem(source: string, git: GitSource, projectDir: string): string | undefined {
  const rel = checkoutDir(git, SKILLS_CACHE);
  const dir = resolve(projectDir, rel);
  if (!isDir(join(dir, '.git'))) return undefined;
  try {
    const misnamed = misnamedSkillProblem(dir);
    if (misnamed) return `${shownUrl(source)}, fetched into ${rel}: ${misnamed}`;
    if (skillDirs(dir).length > 0) return undefined;
  } catch {
    return undefined; // unreadable: the run says why
  }
  return (
    `expected a skill in ${shownUrl(source)}, fetched into ${rel}: found no SKILL.md (nor a pack's */SKILL.md, ` +
    'skills/*/SKILL.md); fix the source, then axis run --refresh-skills fetches it again'
  );
}

/** The source itself when it is a skill, else the skills one and two levels down (`x/`, `skills/x/`). */
export function skillDirs(dir: string): string[] {
  if (existsSync(join(dir, 'SKILL.md'))) return [dir];
  return candidateDirs(dir).filter((d) => existsSync(join(d, 'SKILL.md')));
}

/** The folders a source's skills may be in, the source first: itself, `x/`, `skills/x/`. */
function candidateDirs(dir: string): string[] {
  const children = (d: string) =>
    existsSync(d)
      ? readdirSync(d, { withFileTypes: true })
          .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
          .map((e) => join(d, e.name))
          .sort()
      : [];
  return [...children(dir), ...children(join(dir, 'skills'))];
}

/**
 * What is wrong with the skill folders of a source whose entry file is `skill.md`, `Skill.md`… rather
 * than SKILL.md, or undefined. Agents read SKILL.md only (on a case-sensitive disk), so such a folder would
 * be passed over without a word; it is almost surely a typo. A folder with no such file (scripts/) is fine.
 */
export function misnamedSkillProblem(dir: string): string | undefined {
  const dirs = existsSync(join(dir, 'SKILL.md')) ? [dir] : [dir, ...candidateDirs(dir)];
  const found = dirs.flatMap((d) => {
    if (existsSync(join(d, 'SKILL.md'))) return [];
    const name = readdirSync(d).find((n) => n.toUpperCase() === 'SKILL.MD');
    return name ? [`expected ${join(d, 'SKILL.md')}, found ${name}`] : [];
  });
  if (found.length === 0) return undefined;
  return `${found.join('; ')}: rename ${found.length === 1 ? 'it' : 'each'} SKILL.md (agents read that name only, in capitals)`;
}

function skillDirProblem(dir: string): string | undefined {
  if (!isDir(dir))
    return `expected a skill folder at ${dir}, ${existsSync(dir) ? 'found a file' : 'found nothing there'}`;
  const expected = `expected a skill folder at ${dir} holding SKILL.md (or a skill pack: */SKILL.md, skills/*/SKILL.md)`;
  try {
    return misnamedSkillProblem(dir) ?? (skillDirs(dir).length === 0 ? `${expected}, found none` : undefined);
  } catch (err) {
    return `${expected}, could not read it: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
}

function isDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
