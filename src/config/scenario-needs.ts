/**
 * Files a scenario needs at run time (its tape under simulate, its local skill folders) are looked up when
 * it loads but only noted on it: `axis run` and `axis validate` report them for the scenarios they select
 * (config/needed-files.ts), so an unselected scenario never blocks a run.
 */
import { existsSync } from 'node:fs';
import { joinPath } from './issues.js';
import { missingSkillDirs } from './skill-sources.js';
import type { ResolvedScenario } from './types.js';

export interface NeedsWhere {
  /** The issue path of the scenario (or of the variant setting a field), per field: `''`, `variants[1]`. */
  tape: string;
  skills: string;
  /** The scenario's own path (`''`, or `scenarios[3]` inline). */
  scenario: string;
  /** The tape was set with `tape` rather than found by key. */
  explicitTape: boolean;
}

/** What of the scenario's context this needs (scenario-resolve.ts `ScenarioContext`). */
interface Context {
  configDir: string;
  /** The project's config dir, holding the skills cache (a remote scenario's configDir is its checkout). */
  projectDir?: string;
  requireTapes?: boolean;
  issueFile?: string;
}

export function noteNeeds(scenario: ResolvedScenario, ctx: Context, where: NeedsWhere): void {
  const file = ctx.issueFile ?? '';
  if (ctx.requireTapes && !scenario.skip && !existsSync(scenario.tape)) {
    scenario.missingTape = {
      file,
      path: where.explicitTape ? joinPath(where.tape, 'tape') : where.scenario,
      message: where.explicitTape
        ? `simulate is on but the tape file does not exist: ${scenario.tape}`
        : `simulate is on but there is no tape for "${scenario.key}": expected ${scenario.tape} (write one: docs/simulator.md#tapes; record one: axis sim record; or set "tape")`,
    };
  }
  const at = joinPath(where.skills, 'skills');
  const skills = missingSkillDirs(scenario.skills, at, ctx.configDir, ctx.projectDir ?? ctx.configDir);
  if (!scenario.skip && skills.length > 0) scenario.missingSkills = skills.map((s) => ({ file, ...s }));
}
