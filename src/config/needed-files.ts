/**
 * Skill sources a run needs, checked for what it selects: the config's `skills` (with those its remotes'
 * configs add), the planned agents' and the planned scenarios' (noted when they loaded, scenario-needs.ts).
 * A missing local folder, one with no SKILL.md, or a git source fetched earlier with none, is a config
 * error naming the file and field, before any job or hook; an unselected one blocks nothing. A run with
 * `--refresh-skills` fetches git sources again, so what the cache holds does not stop it.
 */
import { formatPath, joinPath } from './issues.js';
import { displayPath } from './scenarios.js';
import { missingSkillDirs } from './skill-sources.js';
import type { LoadedConfig, ResolvedAgent, ResolvedScenario, SkillIssue } from './types.js';
import type { ValidationIssue } from '../util/errors.js';

export function missingSkillIssues(
  loaded: LoadedConfig,
  agents: readonly ResolvedAgent[],
  scenarios: readonly ResolvedScenario[],
  cwd: string,
  opts: { refreshSkills?: boolean } = {},
): ValidationIssue[] {
  const file = displayPath(loaded.configPath, cwd);
  const { configDir } = loaded;
  const overlay = loaded.profile === undefined ? undefined : loaded.baseConfig.profiles?.[loaded.profile];
  // Profiles replace arrays whole: a list the profile sets is the profile's, at its own path.
  const at = (field: 'skills' | 'agents') =>
    overlay?.[field] !== undefined ? joinPath(formatPath(['profiles', loaded.profile!]), field) : field;
  const own = overlay?.skills ?? loaded.baseConfig.skills ?? [];
  const found = missingSkillDirs(own, at('skills'), configDir);
  // Resolved agents are the config's entries in order (remotes add none).
  const planned = new Set(agents.map((a) => a.name));
  loaded.config.agents.forEach((a, i) => {
    if (planned.has(a.name))
      found.push(...missingSkillDirs(a.skills, `${at('agents')}[${i}].skills`, configDir));
  });
  const issues = new Map<string, ValidationIssue>();
  const all: SkillIssue[] = [
    ...found.map((f) => ({ file, ...f })),
    ...(loaded.missingSkills ?? []),
    ...scenarios.flatMap((s) => s.missingSkills ?? []),
  ];
  for (const { fetched, ...i } of all)
    if (!(fetched && opts.refreshSkills)) issues.set(`${i.file}\0${i.path}`, i); // variants sharing skills: said once
  return [...issues.values()];
}
