/**
 * Skill sources → skill directories, resolved once per run before any job starts. Local sources
 * (`./…`, `../…`, absolute) are relative to the config dir. Git sources (`owner/repo`, `github:owner/repo`,
 * https/ssh/file URLs, each with an optional `#ref`) are checked out once into
 * `.axis/skills-cache/<host>/<owner>/<repo>@<ref>` and reused until `--refresh-skills`. A source is one
 * skill when it holds a SKILL.md, else every `skills/*\/SKILL.md` and `*\/SKILL.md` in it (skill packs).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ResolvedSkill } from '../adapters/types.js';
import { ensureCheckout, escapingLinks, RemoteError } from '../config/git.js';
import {
  classifySkillSource,
  misnamedSkillProblem,
  SKILLS_CACHE,
  skillDirs,
  type SkillSource,
} from '../config/skill-sources.js';
import { checkoutDir, shownUrl } from '../config/sources.js';
import { AxisError } from '../util/errors.js';

export { SKILLS_CACHE };

export interface SkillResolution {
  /** Source string → its skills (one, or several for a pack). */
  skills: Map<string, ResolvedSkill[]>;
  /** What happened to remote sources worth saying (fetched or checked out, for -v). */
  notes: string[];
  /** A remote source not fetched as asked (unreachable, or a checkout another axis uses): said always. */
  warnings: string[];
}

export interface SkillOptions {
  /** Fetch remote sources again even when cached (`--refresh-skills`). */
  refresh?: boolean;
}

/** Resolves every source; all problems are reported together (AxisError, exit 2). */
export async function resolveSkillSources(
  sources: Iterable<string>,
  configDir: string,
  opts: SkillOptions = {},
): Promise<SkillResolution> {
  const skills = new Map<string, ResolvedSkill[]>();
  const notes: string[] = [];
  const warnings: string[] = [];
  const problems: string[] = [];
  const cacheOwners = new Map<string, string>();
  for (const source of new Set(sources)) {
    const kind = classifySkillSource(source, configDir);
    const dir =
      kind.kind === 'local'
        ? localDir(source, kind.dir, problems)
        : await remoteDir(source, kind, configDir, { ...opts, cacheOwners }, { notes, warnings }, problems);
    if (dir === undefined) continue;
    const found = skillDirs(dir);
    // A fetched pack is checked here: validate cannot see it before it is fetched.
    const misnamed = misnamedSkillProblem(dir);
    if (misnamed) {
      problems.push(`skill "${shownUrl(source)}": ${misnamed}`);
      continue;
    }
    if (found.length === 0) {
      problems.push(
        `skill "${shownUrl(source)}": no SKILL.md in ${dir}, in its immediate subdirectories or in its skills/*/ folders`,
      );
      continue;
    }
    skills.set(
      source,
      found.map((d) => ({ name: skillName(d), dir: d })),
    );
  }
  if (problems.length)
    throw new AxisError(`Cannot install skills:\n${problems.map((p) => `  ${p}`).join('\n')}`, {
      exitCode: 2,
    });
  return { skills, notes, warnings };
}

/** A local source's directory, or undefined (and a problem) when there is none. */
function localDir(source: string, dir: string, problems: string[]): string | undefined {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    problems.push(`skill "${source}": no such directory (${dir})`);
    return undefined;
  }
  return dir;
}

/**
 * A git source checked out into the skills cache, or undefined (and a problem) when it is not a git
 * source, cannot be fetched, or links outside its checkout.
 */
async function remoteDir(
  source: string,
  kind: Exclude<SkillSource, { kind: 'local' }>,
  configDir: string,
  opts: SkillOptions & { cacheOwners: Map<string, string> },
  said: Pick<SkillResolution, 'notes' | 'warnings'>,
  problems: string[],
): Promise<string | undefined> {
  if (kind.kind === 'invalid') {
    problems.push(`skill "${shownUrl(source)}": ${kind.reason}`);
    return undefined;
  }
  const parsed = kind.git;
  const rel = checkoutDir(parsed, SKILLS_CACHE);
  const dir = resolve(configDir, rel);
  // `#a/b` and `#a_b` (or file:// repos of one owner/name) map to one folder: one would replace the other.
  const owner = opts.cacheOwners.get(dir);
  if (owner !== undefined && owner !== `${parsed.url}#${parsed.ref ?? ''}`) {
    problems.push(
      `skill "${shownUrl(source)}": it and "${shownUrl(owner.replace(/#$/, ''))}" would share the checkout ${rel}`,
    );
    return undefined;
  }
  opts.cacheOwners.set(dir, `${parsed.url}#${parsed.ref ?? ''}`);
  try {
    const co = await ensureCheckout({
      url: parsed.url,
      ref: parsed.ref,
      dir,
      spec: shownUrl(source),
      force: opts.refresh ?? false,
      checkMoved: opts.refresh ?? false,
    });
    if (co.note) said.warnings.push(co.note);
    else if (co.action !== 'current')
      said.notes.push(`skill "${shownUrl(source)}": ${co.action} at ${co.commit.slice(0, 12)}`);
  } catch (err) {
    if (!(err instanceof RemoteError)) throw err;
    // Messages name the source as shown: its credentials masked.
    const shown = shownUrl(source);
    problems.push(`skill ${err.message.startsWith(shown) ? err.message : `"${shown}": ${err.message}`}`);
    return undefined;
  }
  const links = await escapingLinks(dir);
  if (links.length) {
    problems.push(
      `skill "${shownUrl(source)}": refused, its checkout has symlinks pointing outside it: ${links.join(', ')}`,
    );
    return undefined;
  }
  return dir;
}

/** The `name:` of SKILL.md's front matter when it is a safe folder name, else the folder's name. */
export function skillName(dir: string): string {
  const text = readFileSync(join(dir, 'SKILL.md'), 'utf8');
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const name = /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(front)?.[1];
  return name && /^[A-Za-z0-9][\w.-]*$/.test(name) ? name : basename(dir);
}

/** A job's skills: config, then agent, then scenario sources; each source and each name once. */
export function skillsFor(lists: readonly (readonly string[])[], resolved: SkillResolution): ResolvedSkill[] {
  const out: ResolvedSkill[] = [];
  const names = new Set<string>();
  for (const source of new Set(lists.flat())) {
    for (const skill of resolved.skills.get(source) ?? []) {
      if (names.has(skill.name)) continue;
      names.add(skill.name);
      out.push(skill);
    }
  }
  return out;
}
