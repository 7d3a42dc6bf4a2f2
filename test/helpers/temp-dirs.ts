/**
 * Temp dirs a test helper makes for the file that calls it, removed after that file by test/setup.ts.
 * A helper module cannot register its own afterAll: in the shared `unit` project (vitest.config.ts) it is
 * evaluated once per worker, so the hook would attach to the first file only and later files would leak.
 */
import { rmSync } from 'node:fs';

const dirs: string[] = [];

export function trackTempDir(dir: string): string {
  dirs.push(dir);
  return dir;
}

export function removeTrackedTempDirs(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
