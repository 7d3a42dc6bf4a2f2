/**
 * Skill sources → skill directories, resolved once per run before any job starts. Local sources
 * (`./…`, `../…`, absolute) are relative to the config dir; the skill is that directory when it holds a
 * SKILL.md, else its first non-dot subdirectory that does. Remote sources (`owner/repo`, GitHub URLs)
 * are not fetched by this version: they are reported and skipped.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import type { ResolvedSkill } from '../adapters/types.js';
import { AxisError } from '../util/errors.js';

export interface SkillResolution {
  /** Source string → skill. */
  skills: Map<string, ResolvedSkill>;
  /** Remote sources that were skipped. */
  skipped: string[];
}

const isLocal = (s: string) => s.startsWith('./') || s.startsWith('../') || s === '.' || isAbsolute(s);

/** Resolves every source; all problems are reported together (AxisError, exit 2). */
export function resolveSkillSources(sources: Iterable<string>, configDir: string): SkillResolution {
  const skills = new Map<string, ResolvedSkill>();
  const skipped: string[] = [];
  const problems: string[] = [];
  for (const source of new Set(sources)) {
    if (!isLocal(source)) {
      skipped.push(source);
      continue;
    }
    const dir = resolve(configDir, source);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      problems.push(`skill "${source}": no such directory (${dir})`);
      continue;
    }
    const skillDir = existsSync(join(dir, 'SKILL.md')) ? dir : firstSkillSubdir(dir);
    if (!skillDir) {
      problems.push(`skill "${source}": no SKILL.md in ${dir} or in any of its immediate subdirectories`);
      continue;
    }
    skills.set(source, { name: basename(skillDir), dir: skillDir });
  }
  if (problems.length)
    throw new AxisError(`Cannot install skills:\n${problems.map((p) => `  ${p}`).join('\n')}`, {
      exitCode: 2,
    });
  return { skills, skipped };
}

function firstSkillSubdir(dir: string): string | undefined {
  const names = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort();
  const hit = names.find((n) => existsSync(join(dir, n, 'SKILL.md')));
  return hit === undefined ? undefined : join(dir, hit);
}

/** A job's skills: config, then agent, then scenario sources; each source and each name once. */
export function skillsFor(lists: readonly (readonly string[])[], resolved: SkillResolution): ResolvedSkill[] {
  const out: ResolvedSkill[] = [];
  const names = new Set<string>();
  for (const source of new Set(lists.flat())) {
    const skill = resolved.skills.get(source);
    if (!skill || names.has(skill.name)) continue;
    names.add(skill.name);
    out.push(skill);
  }
  return out;
}
