/**
 * Secrets in what `axis run` prints and in the copies it writes outside `.axis/reports` (`--json`, `-o`,
 * `--reporter json=`): lifecycle scripts and an ndjson agent print two host secrets passed through the
 * config's `env`, and neither may reach stdout, stderr or any file AXIS wrote.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const T = 90_000;
/** No known credential shape: only its variable's name makes it a secret. */
const HOST = 'tok-Nonpattern-4815162342';
const OTHER = 'cfg-Other-0987654321';
const SECRETS = [HOST, OTHER];
const ENV = { MY_API_TOKEN: HOST, CFG_SECRET_KEY: OTHER };
/** Says both secrets on stdout and stderr and into the notes, then exits with `code`. */
const say = (code: number) => ({
  action: 'run_script',
  command: `echo "$MY_API_TOKEN $CFG_SECRET_KEY"; echo "note $MY_API_TOKEN $CFG_SECRET_KEY" >> "$AXIS_OUTPUT"; echo "err $MY_API_TOKEN $CFG_SECRET_KEY" >&2; exit ${code}`,
});
/** An ndjson agent that fails with both secrets in its error. */
const AGENT = `const s = process.env.MY_API_TOKEN + ' ' + process.env.CFG_SECRET_KEY;
process.stdout.write(JSON.stringify({ type: 'error', message: 'boom ' + s }) + '\\n');
process.stderr.write('stderr ' + s + '\\n');
process.exit(3);`;

function project(extra: Record<string, unknown>): string {
  return makeProject({
    'axis.config.json': {
      agents: [
        { agent: 'command', name: 'a', command: process.execPath, args: ['-e', AGENT], output: 'ndjson' },
      ],
      env: Object.keys(ENV),
      ...extra,
    },
    'scenarios/s.json': {
      name: 'S',
      prompt: 'go',
      checks: [{ result_matches: 'done' }],
      setup: [say(0)],
      teardown: [say(1)],
    },
  });
}

/** Every file under `dir` but the project's own inputs. */
function written(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((p) => statSync(p).isFile() && !/^(axis\.config\.json|scenarios\/)/.test(relative(dir, p)));
}

function expectNoSecret(dir: string, out: { stdout: string; stderr: string }): void {
  for (const s of SECRETS) {
    expect(out.stdout, 'stdout').not.toContain(s);
    expect(out.stderr, 'stderr').not.toContain(s);
    for (const path of written(dir)) {
      expect(relative(dir, path), 'a file name').not.toContain(s);
      expect(readFileSync(path, 'utf8'), relative(dir, path)).not.toContain(s);
    }
  }
}

describe('secrets in what axis run prints and copies', () => {
  it(
    'beforeAll/afterAll notes and an afterAll failure stay out of --json, -o and --reporter json',
    async () => {
      const dir = project({ beforeAll: [say(0)], afterAll: [say(1)] });
      const out = await axis(['run', '--json', '-o', 'out', '--reporter', 'json=rep.json'], dir, ENV);
      expect(out.code, out.stderr).toBe(1);
      const doc = JSON.parse(out.stdout) as { hooks: Record<string, { notes?: string; error?: string }> };
      expect(doc.hooks.beforeAll!.notes).toContain('note [REDACTED] [REDACTED]');
      expect(doc.hooks.afterAll!.error).toContain('err [REDACTED] [REDACTED]');
      expectNoSecret(dir, out);
    },
    T,
  );

  it(
    '-v logs the scripts’ output, the agent’s error and the teardown failure without the secrets',
    async () => {
      const dir = project({ beforeAll: [say(0)], afterAll: [say(0)] });
      const out = await axis(['run', '-v'], dir, ENV);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('[setup] [REDACTED] [REDACTED]');
      expect(out.stderr).toContain('agent ended: exit 3');
      expect(out.stderr).toContain('boom [REDACTED] [REDACTED]');
      expect(out.stderr).toContain('teardown[0]: Lifecycle action failed');
      expectNoSecret(dir, out);
    },
    T,
  );

  it(
    'a failing beforeAll names its stderr without the secrets',
    async () => {
      const dir = project({ beforeAll: [say(1)] });
      const out = await axis(['run'], dir, ENV);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain('err [REDACTED] [REDACTED]');
      expectNoSecret(dir, out);
    },
    T,
  );
});

describe('a multi-line secret', () => {
  const lines = ['MIIEowIBAAKCAQEA7bq9f1cxQ2hRk', 'Zm9vYmFyYmF6cXV4cXV1eHl6enk'];
  const pem = `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----\n`;
  // Prints the key as it is: a text event holding it whole, then each line on its own (raw lines).
  const agent = `const k = process.env.DEPLOY_KEY;
process.stdout.write(JSON.stringify({ type: 'text', text: 'key: ' + k }) + '\\n');
process.stdout.write(k);
process.stdout.write(JSON.stringify({ type: 'result', text: 'done' }) + '\\n');`;

  it(
    'is masked whole and line by line in every file, raw lines included',
    async () => {
      const dir = makeProject({
        'axis.config.json': {
          agents: [
            { agent: 'command', name: 'a', command: process.execPath, args: ['-e', agent], output: 'ndjson' },
          ],
          env: ['DEPLOY_KEY'],
        },
        'scenarios/s.json': { name: 'S', prompt: 'go', checks: [{ result_matches: 'done' }] },
      });
      const out = await axis(['run', '--no-score', '--json'], dir, { DEPLOY_KEY: pem });
      expect(out.code, out.stderr).toBe(0);
      const raw = written(dir).filter((p) => p.endsWith('.raw.ndjson'));
      expect(raw).toHaveLength(1);
      expect(readFileSync(raw[0]!, 'utf8')).toContain('[REDACTED]');
      for (const s of [pem, ...lines]) {
        expect(out.stdout).not.toContain(s);
        for (const path of written(dir))
          expect(readFileSync(path, 'utf8'), relative(dir, path)).not.toContain(s);
      }
    },
    T,
  );
});

describe('credentials in a URL', () => {
  // Variables named like no secret: only the URL's user-info makes a password or token of them.
  const env = {
    IDP_URL: 'https://admin:Kc-Pass-918273@kc.internal:8443/auth',
    DATABASE_URL: 'postgres://app:Db%2FPw-5544332@db.internal:5432/app',
    SUITE_REPO: 'https://ghpBareToken0123456789@git.internal/o/r.git',
  };
  const secrets = ['Kc-Pass-918273', 'Db%2FPw-5544332', 'Db/Pw-5544332', 'ghpBareToken0123456789'];
  // Prints each URL whole, then each credential on its own (as an agent that parsed the URL would).
  const agent = `const urls = [process.env.IDP_URL, process.env.DATABASE_URL, process.env.SUITE_REPO];
const creds = urls.map((u) => { const x = new URL(u); return x.password || x.username; });
const said = [...urls, ...creds, decodeURIComponent(creds[1])].join(' ');
process.stdout.write(JSON.stringify({ type: 'text', text: 'env: ' + said }) + '\\n');
process.stderr.write('stderr ' + said + '\\n');
process.stdout.write(JSON.stringify({ type: 'result', text: 'done ' + said }) + '\\n');`;

  it(
    'a password or token in an env value named like no secret is masked in every file and on stdout',
    async () => {
      const dir = makeProject({
        'axis.config.json': {
          agents: [
            { agent: 'command', name: 'a', command: process.execPath, args: ['-e', agent], output: 'ndjson' },
          ],
          env: Object.keys(env),
        },
        'scenarios/s.json': { name: 'S', prompt: 'go', checks: [{ result_matches: 'done' }] },
      });
      const out = await axis(['run', '--no-score', '--json'], dir, env);
      expect(out.code, out.stderr).toBe(0);
      // The agent's words reached the report, the rest of each URL readable.
      const all = written(dir)
        .map((p) => readFileSync(p, 'utf8'))
        .join('\n');
      expect(all).toContain('https://admin:[REDACTED]@kc.internal:8443/auth');
      expect(all).toContain('https://[REDACTED]@git.internal/o/r.git');
      for (const s of secrets) {
        expect(out.stdout).not.toContain(s);
        for (const path of written(dir))
          expect(readFileSync(path, 'utf8'), relative(dir, path)).not.toContain(s);
      }
    },
    T,
  );
});
