/** What the validate-and-stop tests of this folder share: a scenario, a beforeAll that leaves a mark. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** A scenario the plan can run without a judge: its check is a file. */
export const HELLO = { name: 'hello', prompt: 'Say hello.', checks: [{ file: 'out.txt', exists: true }] };

/** A config's `beforeAll` that marks the project when it runs. */
export const MARKING_BEFORE_ALL = [{ action: 'run_script', command: 'touch before-all-ran' }];

/** The run stopped before its beforeAll and before any job: no mark, no report. */
export function expectNothingRan(dir: string): void {
  expect(existsSync(join(dir, 'before-all-ran'))).toBe(false);
  expect(existsSync(join(dir, '.axis/reports'))).toBe(false);
}
