import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Check, Criterion } from '../../../../src/config/types.js';
import { resultMatches, runCheck, runChecks } from '../../../../src/scoring/checks/index.js';
import type { CheckContext } from '../../../../src/scoring/checks/types.js';
import { startServer, type TestServer } from '../judges/server.js';

/** A server on a port the Fetch standard blocks (node's fetch() fails on it with "bad port"). */
async function listenOnBlockedPort(): Promise<Server & { port: number }> {
  for (const port of [10080, 6566, 6679, 4190, 3659, 6000, 5060]) {
    const server = createServer((_req, res) => res.end('ok'));
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) return Object.assign(server, { port });
  }
  throw new Error('every blocked port is taken');
}

const roots: string[] = [];
afterAll(() => roots.forEach((d) => rmSync(d, { recursive: true, force: true })));
let ws: string;
let outside: string;
beforeEach(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'axis-checks-')));
  roots.push(root);
  ws = join(root, 'work');
  outside = join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
});
const ctx = (over: Partial<CheckContext> = {}): CheckContext => ({
  workDir: ws,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GREETING: 'hi from the job env' },
  finalAnswer: null,
  ...over,
});

describe('run checks', () => {
  it('passes when the exit code matches, with the exit code and output as evidence', async () => {
    writeFileSync(join(ws, 'data.txt'), '42\n');
    const v = await runCheck({ kind: 'run', run: 'cat data.txt && echo "$GREETING"', expect_exit: 0 }, ctx());
    expect(v).toEqual({
      passed: true,
      evidence: 'exit code 0 (expected 0); output: 42 ⏎ hi from the job env',
    });
  });

  it('fails on another exit code and shows stderr', async () => {
    const v = await runCheck({ kind: 'run', run: 'echo broken >&2; exit 3', expect_exit: 0 }, ctx());
    expect(v).toEqual({ passed: false, evidence: 'exit code 3 (expected 0); output: broken' });
  });

  it('can expect a non-zero exit', async () => {
    const v = await runCheck({ kind: 'run', run: 'test -f missing.txt', expect_exit: 1 }, ctx());
    expect(v.passed).toBe(true);
  });

  it('keeps only the tail of long output', async () => {
    const v = await runCheck({ kind: 'run', run: 'seq 1 5000', expect_exit: 0 }, ctx());
    expect(v.evidence.length).toBeLessThan(700);
    expect(v.evidence).toMatch(/4999 ⏎ 5000$/);
  });

  it('shows the end of output longer than 4 MB, where the summary is', async () => {
    const run = "head -c 6000000 /dev/zero | tr '\\0' 'y'; echo; echo '3 tests failed'; exit 1";
    const v = await runCheck({ kind: 'run', run, expect_exit: 0 }, ctx());
    expect(v.evidence).toMatch(/^exit code 1 \(expected 0\); output: …y+ ⏎ 3 tests failed$/);
  });

  it('times out, killing the command', async () => {
    const v = await runCheck({ kind: 'run', run: 'sleep 30', expect_exit: 0 }, ctx({ runTimeoutMs: 300 }));
    expect(v).toEqual({ passed: false, evidence: 'timed out after 0.3 s; no output' });
  });
});

describe('file checks', () => {
  beforeEach(() => {
    writeFileSync(join(ws, 'notes.md'), '# Notes\nfinal version\n');
    mkdirSync(join(ws, 'dist'));
    writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET');
  });

  it('a path under a regular file does not exist (not an ENOTDIR failure)', async () => {
    expect(await runCheck({ kind: 'file_exists', file: 'notes.md/x', exists: false }, ctx())).toEqual({
      passed: true,
      evidence: 'notes.md/x does not exist',
    });
    expect(await runCheck({ kind: 'file_contains', file: 'notes.md/x', contains: 'a' }, ctx())).toEqual({
      passed: false,
      evidence: 'notes.md/x does not exist',
    });
  });

  it('exists / does not exist', async () => {
    expect(await runCheck({ kind: 'file_exists', file: 'notes.md', exists: true }, ctx())).toEqual({
      passed: true,
      evidence: 'notes.md exists (22 bytes)',
    });
    expect(await runCheck({ kind: 'file_exists', file: 'dist', exists: true }, ctx())).toEqual({
      passed: true,
      evidence: 'dist exists (a directory)',
    });
    expect(await runCheck({ kind: 'file_exists', file: 'nope.md', exists: true }, ctx())).toEqual({
      passed: false,
      evidence: 'nope.md does not exist',
    });
    expect((await runCheck({ kind: 'file_exists', file: 'nope.md', exists: false }, ctx())).passed).toBe(
      true,
    );
  });

  it('contains, with an excerpt around the match or the start of the file', async () => {
    expect(await runCheck({ kind: 'file_contains', file: 'notes.md', contains: 'final' }, ctx())).toEqual({
      passed: true,
      evidence: 'notes.md contains "final": "# Notes final version"',
    });
    expect(await runCheck({ kind: 'file_contains', file: 'notes.md', contains: 'draft' }, ctx())).toEqual({
      passed: false,
      evidence: 'notes.md (22 bytes) does not contain "draft"; it begins: "# Notes final version"',
    });
    expect(await runCheck({ kind: 'file_contains', file: 'dist', contains: 'x' }, ctx())).toEqual({
      passed: false,
      evidence: 'dist is a directory, not a file',
    });
  });

  it('keeps the excerpt of a long match to 160 characters, from the match start', async () => {
    writeFileSync(join(ws, 'big.txt'), `x${'a'.repeat(100_000)}`);
    expect(await runCheck({ kind: 'file_matches', file: 'big.txt', matches: 'a[\\s\\S]*' }, ctx())).toEqual({
      passed: true,
      evidence: `big.txt matches a[\\s\\S]*: "…${'a'.repeat(160)}…"`,
    });
  });

  it('matches a regex with literal flags', async () => {
    const v = await runCheck(
      { kind: 'file_matches', file: 'notes.md', matches: '/^final version$/m' },
      ctx(),
    );
    expect(v).toEqual({
      passed: true,
      evidence: 'notes.md matches /^final version$/m: "# Notes final version"',
    });
    const miss = await runCheck({ kind: 'file_matches', file: 'notes.md', matches: '^final' }, ctx());
    expect(miss.passed).toBe(false);
  });

  it('refuses paths that leave the workspace, by .. or through a symlink', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'link.txt'));
    symlinkSync(outside, join(ws, 'out'));
    const checks: Check[] = [
      { kind: 'file_contains', file: 'link.txt', contains: 'SECRET' },
      { kind: 'file_exists', file: 'out/secret.txt', exists: true },
      { kind: 'file_exists', file: 'out/new.txt', exists: false },
      { kind: 'file_matches', file: '../outside/secret.txt', matches: 'SECRET' },
    ];
    const verdicts = await Promise.all(checks.map((c) => runCheck(c, ctx())));
    expect(verdicts.map((v) => v.passed)).toEqual([false, false, false, false]);
    expect(verdicts[0]!.evidence).toBe(
      'link.txt leads outside the workspace through a symbolic link (not followed)',
    );
    expect(verdicts[2]!.evidence).toBe(
      'out/new.txt leads outside the workspace through a symbolic link (not followed)',
    );
    expect(verdicts[3]!.evidence).toBe('../outside/secret.txt is outside the workspace');
    expect(verdicts.map((v) => v.evidence).join(' ')).not.toContain('TOP SECRET');
  });

  it('follows symlinks that stay inside the workspace', async () => {
    symlinkSync(join(ws, 'notes.md'), join(ws, 'alias.md'));
    expect(
      (await runCheck({ kind: 'file_contains', file: 'alias.md', contains: '# Notes' }, ctx())).passed,
    ).toBe(true);
  });
});

describe('result_matches', () => {
  it('matches the final answer, or says there was none', async () => {
    expect(await resultMatches('The total is 42.', '\\b42\\b')).toEqual({
      passed: true,
      evidence: 'the final answer matches \\b42\\b: "The total is 42."',
    });
    expect((await resultMatches('State: READY', '/\\bready\\b/i')).passed).toBe(true);
    expect(await resultMatches('The total is 41.', '\\b42\\b')).toEqual({
      passed: false,
      evidence: 'the final answer (16 chars) does not match \\b42\\b; it ends: "The total is 41."',
    });
    expect(await resultMatches(null, 'x')).toEqual({
      passed: false,
      evidence: 'the agent gave no final answer',
    });
  });
});

describe('http checks', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('compares the status and looks for the text in the body', async () => {
    server = await startServer((req) =>
      req.path === '/status' ? { body: { state: 'ready' } } : { status: 404, body: { error: 'not found' } },
    );
    const http = (url: string, status = 200, contains?: string, method = 'GET'): Check => ({
      kind: 'http',
      http: { url: `${server!.url}${url}`, status, method, ...(contains !== undefined ? { contains } : {}) },
    });
    expect(await runCheck(http('/status', 200, 'ready'), ctx())).toEqual({
      passed: true,
      evidence: `GET ${server.url}/status answered 200 (expected 200); body contains "ready"`,
    });
    expect(await runCheck(http('/status', 200, 'down'), ctx())).toEqual({
      passed: false,
      evidence: `GET ${server.url}/status answered 200 (expected 200); body does not contain "down"; body: "{\\"state\\":\\"ready\\"}"`,
    });
    expect((await runCheck(http('/missing'), ctx())).passed).toBe(false);
    expect((await runCheck(http('/missing', 404), ctx())).passed).toBe(true);
    expect((await runCheck(http('/status', 200, undefined, 'POST'), ctx())).passed).toBe(true);
    expect(server.requests.at(-1)!.method).toBe('POST');
  });

  it('reaches a service on a port that fetch() refuses as a "bad port" (6000, 10080, …)', async () => {
    const server = await listenOnBlockedPort();
    try {
      const url = `http://127.0.0.1:${server.port}/health`;
      const v = await runCheck(
        { kind: 'http', http: { url, status: 200, method: 'GET', contains: 'ok' } },
        ctx(),
      );
      expect(v).toEqual({
        passed: true,
        evidence: `GET ${url} answered 200 (expected 200); body contains "ok"`,
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('follows redirects, a 303 as a GET', async () => {
    server = await startServer((req) =>
      req.path === '/old'
        ? { status: 303, headers: { location: '/new' } }
        : req.path === '/new'
          ? { body: { at: `${req.method} new` } }
          : { status: 404 },
    );
    const url = `${server.url}/old`;
    const v = await runCheck(
      { kind: 'http', http: { url, status: 200, method: 'POST', contains: 'GET new' } },
      ctx(),
    );
    expect(v).toEqual({
      passed: true,
      evidence: `POST ${url} answered 200 (expected 200); body contains "GET new"`,
    });
  });

  it('fails with the network reason when nothing answers', async () => {
    const probe = await startServer(() => ({}));
    const url = `${probe.url}/x`;
    await probe.close();
    const v = await runCheck({ kind: 'http', http: { url, status: 200, method: 'GET' } }, ctx());
    expect(v).toEqual({ passed: false, evidence: `GET ${url} failed: ECONNREFUSED` });
  });
});

describe('runChecks', () => {
  it('says a check stopped by the time budget was stopped by it, and fails the rest as not run', async () => {
    const criteria: Criterion[] = [
      {
        kind: 'check',
        index: 0,
        label: 'hangs',
        weight: 0.5,
        check: { kind: 'run', run: 'sleep 30', expect_exit: 0 },
      },
      {
        kind: 'check',
        index: 1,
        label: 'after',
        weight: 0.5,
        check: { kind: 'run', run: 'true', expect_exit: 0 },
      },
    ];
    const out = await runChecks(criteria, ctx({ budgetMs: 400 }));
    expect(out.map((o) => o.rationale)).toEqual([
      "Failed: stopped: the checks' time budget (0.4 s) is spent; no output",
      "Failed: not run: the checks' time budget (0.4 s) is spent",
    ]);
  });

  it('turns check criteria into 10/0 outcomes with their evidence, skipping judge criteria', async () => {
    writeFileSync(join(ws, 'a.txt'), 'alpha');
    const criteria: Criterion[] = [
      { kind: 'judge', index: 0, label: 'did well', weight: 0.5, check: 'did well' },
      {
        kind: 'check',
        index: 0,
        label: 'a.txt exists',
        weight: 0.25,
        check: { kind: 'file_exists', file: 'a.txt', exists: true },
      },
      {
        kind: 'check',
        index: 1,
        label: 'answer',
        weight: 0.25,
        check: { kind: 'result_matches', result_matches: 'beta' },
      },
    ];
    const out = await runChecks(criteria, ctx({ finalAnswer: 'alpha only' }));
    expect(out.map(({ durationMs: _d, ...o }) => o)).toEqual([
      {
        index: 0,
        label: 'a.txt exists',
        weight: 0.25,
        kind: 'file_exists',
        passed: true,
        score: 10,
        rationale: 'Passed: a.txt exists (5 bytes)',
      },
      {
        index: 1,
        label: 'answer',
        weight: 0.25,
        kind: 'result_matches',
        passed: false,
        score: 0,
        rationale: 'Failed: the final answer (10 chars) does not match beta; it ends: "alpha only"',
      },
    ]);
  });
});
