/** Copying resolved skills into the directory an agent reads them from. */
import { cp, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ResolvedSkill } from './types.js';

const SKIPPED = new Set(['.git', '.github', 'node_modules']);

/** Copies each skill to `<targetDir>/<name>/`, leaving out VCS metadata and node_modules. */
export async function installSkills(skills: ResolvedSkill[], targetDir: string): Promise<void> {
  if (skills.length === 0) return;
  await mkdir(targetDir, { recursive: true });
  for (const skill of skills) {
    await cp(skill.dir, join(targetDir, skill.name), {
      recursive: true,
      force: true,
      filter: (src) => !SKIPPED.has(basename(src)),
    });
  }
}
