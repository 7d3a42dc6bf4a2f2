/** A new user without an API key after `axis init`: told the offline way, which then runs as it is. */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';

const dirs: string[] = [];
beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** No key and an empty home: no local login either. */
const noKeys = (home: string) => ({
  HOME: home,
  ANTHROPIC_API_KEY: undefined,
  ANTHROPIC_AUTH_TOKEN: undefined,
  CLAUDE_CODE_OAUTH_TOKEN: undefined,
});

describe('axis init, then a run without a key', () => {
  it('run names the offline way (simulate), and with it on the scaffold runs and is scored from the tape init wrote', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-init-offline-')));
    dirs.push(dir);
    const home = join(dir, 'home');
    mkdirSync(home);
    const init = await axis(['init', '--no-skills'], dir);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Created tapes/hello-world.json\n');
    expect(init.stdout).toContain(
      'No API key? Set "settings": { "simulate": true } in axis.config.json: the model simulator then plays ' +
        'tapes/hello-world.json (docs/simulator.md in axis-eval).\n',
    );

    const run = await axis(['run'], dir, noKeys(home));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'Invalid configuration (1 problem):\n  axis.config.json: agents "claude-code": no credentials: none of ANTHROPIC_API_KEY',
    );
    expect(run.stderr).toContain(
      '\nTo run offline instead, set "settings": { "simulate": true } in axis.config.json: the simulator then ' +
        "plays the model from each scenario's tape (tapes/<scenario key>.json; docs/simulator.md in axis-eval).\n",
    );

    // The one edit the message names: then validate and run pass, offline, with no further file to write.
    const configPath = join(dir, 'axis.config.json');
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(configPath, JSON.stringify({ ...config, settings: { simulate: true } }));
    const validate = await axis(['validate'], dir, noKeys(home));
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toBe('');

    const run2 = await axis(['run', '--json'], dir, noKeys(home));
    expect(run2.code, run2.stderr).toBe(0);
    const { results, verdict } = JSON.parse(run2.stdout) as {
      results: { status: string; score?: { status?: string; axisScore?: number } }[];
      verdict: { pass: boolean };
    };
    expect(results[0]?.status).toBe('completed');
    expect(results[0]?.score?.status).toBe('scored');
    expect(results[0]?.score?.axisScore).toBeGreaterThanOrEqual(90);
    expect(verdict.pass).toBe(true);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).not.toContain('tapes');
  }, 120_000);

  it("a tape of the user's own at tapes/hello-world.json is not replaced without --force", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-init-offline-')));
    dirs.push(dir);
    mkdirSync(join(dir, 'tapes'));
    writeFileSync(join(dir, 'tapes/hello-world.json'), '{ "turns": [] }\n');
    const r = await axis(['init', '--no-skills'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'tapes/hello-world.json already exists; nothing was written. Use --force to overwrite.\n',
    );
    expect(readFileSync(join(dir, 'tapes/hello-world.json'), 'utf8')).toBe('{ "turns": [] }\n');
    expect((await axis(['init', '--no-skills', '--force'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'tapes/hello-world.json'), 'utf8')).toContain('"AXIS judge: goal"');
  }, 60_000);
});
