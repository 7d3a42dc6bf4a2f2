/**
 * Local skill folders a run needs, checked for what it selects: the config's `skills`, the planned
 * agents' and the planned scenarios' (noted when they loaded, scenario-needs.ts). A missing one, or one
 * with no SKILL.md, is a config error naming the file and field, before any job or hook; an unselected
 * one blocks nothing.
 */
import { formatPath, joinPath } from './issues.js';
import { displayPath } from './scenarios.js';
import { missingSkillDirs } from './skill-sources.js';
import type { LoadedConfig, ResolvedAgent, ResolvedScenario } from './types.js';
import type { ValidationIssue } from '../util/errors.js';

export function missingSkillIssues(
  loaded: LoadedConfig,
  agents: readonly ResolvedAgent[],
  scenarios: readonly ResolvedScenario[],
  cwd: string,
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
  for (const i of [...found.map((f) => ({ file, ...f })), ...scenarios.flatMap((s) => s.missingSkills ?? [])])
    issues.set(`${i.file}\0${i.path}`, i); // variants sharing their scenario's skills: said once
  return [...issues.values()];
}
