import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig, type LoadConfigOptions } from '../../../src/config/index.js';
import { ConfigError, type ValidationIssue } from '../../../src/util/errors.js';
import { trackTempDir } from '../../helpers/temp-dirs.js';

/** Writes files into a fresh temp dir (removed after the test file); objects become JSON, strings stay as they are. */
export function project(files: Record<string, unknown>): string {
  const dir = trackTempDir(mkdtempSync(join(tmpdir(), 'axis-config-')));
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** The issues loadConfig reports for a project (cwd = the project dir); fails if it loads. */
export async function issuesOf(dir: string, options: LoadConfigOptions = {}): Promise<ValidationIssue[]> {
  try {
    await loadConfig(undefined, { cwd: dir, ...options });
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  throw new Error('expected the config to be invalid, but it loaded');
}

export const hello = {
  name: 'Hello',
  prompt: 'Say hello',
  judge: [{ check: 'Agent said hello' }],
};
