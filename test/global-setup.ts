/**
 * Builds dist/ once before any test file runs, unless it is already newer than every source file
 * in src/ and native/ (`npm test` builds first). E2E tests run `bin/axis.js` and `dist/` modules as a user would; building
 * here, once, means no test file rebuilds while another one is reading dist/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export default function setup(): () => void {
  const marker = join(ROOT, 'dist/bundle/main.js');
  const sources = Math.max(newestMtime(join(ROOT, 'src')), newestMtime(join(ROOT, 'native')));
  if (!existsSync(marker) || sources > statSync(marker).mtimeMs)
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  return removeSuiteCodeCache;
}

/** The code cache vitest.config.ts gave this run of the suite, not one the environment named. */
function removeSuiteCodeCache(): void {
  const dir = process.env.AXIS_CODE_CACHE;
  if (dir && basename(dir).startsWith('axis-suite-code-cache-'))
    rmSync(dir, { recursive: true, force: true });
}
