/**
 * The `{ "error" }` document is one document wherever it goes: `-o <dir>`'s file, `--json`'s stdout and
 * `--reporter json=<file>`. A CI log keeps stdout and stderr as long as a report file, so neither they
 * nor the message on stderr may hold a secret of the environment: each is redacted the same way.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simProject, writeJson } from '../compare/helpers.js';
import { axis, buildDist } from './helpers.js';

const SECRET = 's3cr3t-token-value-4711';
const ENV = { AXIS_TEST_TOKEN: SECRET };
const dirs: string[] = [];

beforeAll(() => buildDist());
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(settings: Record<string, unknown> = {}): string {
  const dir = simProject('axis-error-redaction-', settings, ['a']);
  dirs.push(dir);
  return dir;
}

/** stdout's document, the json reporter's file and -o's file: the same text, the secret in none. */
function expectRedactedEverywhere(dir: string, stdout: string): Record<string, unknown> {
  const [written] = readdirSync(join(dir, 'out'));
  const files = [
    readFileSync(join(dir, 'out', written!), 'utf8'),
    readFileSync(join(dir, 'err.json'), 'utf8'),
  ];
  for (const text of [stdout, ...files]) {
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED]');
    expect(text).toBe(files[0]);
  }
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The message on stderr, which a CI log keeps as long: the same redaction. */
function expectRedactedStderr(stderr: string): void {
  expect(stderr).not.toContain(SECRET);
  expect(stderr).toContain('[REDACTED]');
}

const OUTPUTS = ['--json', '-o', 'out', '--reporter', 'json=err.json'];

describe('the error document holds no secret, on stdout as in files', () => {
  it('a usage error quoting a secret value (a -s filter from the environment)', async () => {
    const dir = project();
    const r = await axis(['run', '-s', SECRET, ...OUTPUTS], dir, ENV);
    expect(r.code, r.stderr).toBe(2);
    expectRedactedStderr(r.stderr);
    const doc = expectRedactedEverywhere(dir, r.stdout);
    expect(doc).toEqual({
      error: {
        message: 'No scenario matches "[REDACTED]". Available scenarios: a',
        exitCode: 2,
        kind: 'usage',
      },
    });
  }, 60_000);

  it('a config error whose value is a secret: message and every issue redacted', async () => {
    const dir = project();
    const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
    writeJson(dir, 'axis.config.json', { ...config, settings: { ...config.settings, runs: SECRET } });
    const r = await axis(['run', ...OUTPUTS], dir, ENV);
    expect(r.code, r.stderr).toBe(2);
    expectRedactedStderr(r.stderr);
    const doc = expectRedactedEverywhere(dir, r.stdout) as { error: { issues: { text: string }[] } };
    expect(doc.error.issues.map((i) => i.text)).toEqual([
      'axis.config.json: settings.runs: expected an odd integer from 1 to 19, found "[REDACTED]"',
    ]);
  }, 60_000);

  it('axis validate --json: its { valid: false, issues } document is redacted the same way', async () => {
    const dir = project();
    const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8'));
    writeJson(dir, 'axis.config.json', { ...config, settings: { ...config.settings, runs: SECRET } });
    const r = await axis(['validate', '--json'], dir, ENV);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).not.toContain(SECRET);
    expectRedactedStderr(r.stderr);
    expect(JSON.parse(r.stdout).issues[0].message).toBe(
      'expected an odd integer from 1 to 19, found "[REDACTED]"',
    );
  }, 60_000);
});
