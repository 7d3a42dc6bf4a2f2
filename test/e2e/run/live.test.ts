/**
 * The terminal reporter as people see it: the live view in a real pseudo-terminal (tmux), the plain lines
 * and colours off a TTY, and `--json` staying one document when the command fails.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { waitFor } from '../../unit/exec/helpers.js';
import { axis, BIN, buildDist } from './helpers.js';
import { tmuxServer } from './tmux.js';

const T = 90_000;
const tmux = tmuxServer('live');

/** `axis run` (two jobs at once) in a detached 150×40 tmux session, which prints its exit code after. */
const runInTmux = (session: string, dir: string) =>
  tmux(
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    '150',
    '-y',
    '40',
    '-c',
    dir,
    `${process.execPath} ${BIN} run --no-score --concurrency 2; echo "EXIT=$?"; sleep 600`,
  );

/** Prints usage lines until the gate file exists, then answers. */
const GATED_AGENT = `import { existsSync } from 'node:fs';
const gate = process.argv[2];
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
out({ type: 'text', text: 'working' });
const t = setInterval(() => {
  out({ type: 'usage', input: 100, output: 20 });
  if (existsSync(gate)) { clearInterval(t); out({ type: 'result', text: 'done' }); }
}, 200);
`;

/**
 * The gate lives in the project folder: jobs get a private /tmp, and the project is the part of the host's
 * /tmp they still see. `open` writes it up front (the jobs answer at once).
 */
function project(open: boolean, extra: Record<string, unknown> = {}): string {
  const dir = makeProject({ 'agent.mjs': GATED_AGENT, ...(open ? { go: '' } : {}) });
  const gate = join(dir, 'go');
  mkdirSync(join(dir, 'scenarios'));
  const agent = {
    agent: 'command',
    name: 'bot',
    command: process.execPath,
    args: [join(dir, 'agent.mjs'), gate],
    output: 'ndjson',
  };
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents: [agent], ...extra }),
  );
  for (const key of ['alpha', 'beta'])
    writeFileSync(
      join(dir, 'scenarios', `${key}.json`),
      JSON.stringify({ name: key, prompt: `do ${key}`, judge: [{ check: 'done' }] }),
    );
  return dir;
}

beforeAll(buildDist, 180_000);
afterAll(removeTempDirs);

describe('live display in a pseudo-terminal (tmux)', () => {
  it(
    'shows running jobs with phase, elapsed, live tokens and [done/total] while they run, then the summary table',
    async () => {
      const dir = project(false);
      const gate = join(dir, 'go');
      runInTmux('live', dir);
      const screen = () => tmux('capture-pane', '-p', '-t', 'live');

      // While the slow jobs run: one row per job, the agent phase, growing tokens, the overall line.
      expect(
        await waitFor(() => /beta +bot +agent +\d+\.\ds +[\d,]+ tokens/.test(screen()), 30_000),
        screen(),
      ).toBe(true);
      const during = screen();
      expect(during).toMatch(/^AXIS: 2 scenarios · 1 agent · 2 jobs · concurrency 2$/m);
      expect(during).toMatch(/^ {2}[◐◓◑◒] alpha +bot +agent +\d+\.\ds +[\d,]+ tokens$/m);
      expect(during).toMatch(/^ {2}\[0\/2\] · 2 running · elapsed \d+\.\ds · ETA –$/m);
      const tokensAt = () =>
        Number(/alpha +bot +agent +\S+ +([\d,]+) tokens/.exec(screen())?.[1]?.replace(/,/g, '') ?? 0);
      const first = tokensAt();
      expect(await waitFor(() => tokensAt() > first, 10_000)).toBe(true);

      writeFileSync(gate, '');
      expect(await waitFor(() => screen().includes('EXIT='), 30_000), screen()).toBe(true);
      const end = screen();
      expect(end).toContain('EXIT=0');
      expect(end).toMatch(/^ {2}✓ alpha +bot +completed +\S+ +[\d,]+ tokens$/m);
      expect(end).toMatch(/^ {2}✓ beta +bot +completed /m);
      expect(end).toMatch(/^ {2}scenario +agent +status +AXIS +goal +env +service +agent$/m);
      expect(end).toMatch(/^ {2}alpha +bot +completed +– +– +– +– +–$/m);
      expect(end).toMatch(/^Report saved: \.axis\/reports\//m);
      // The live area is gone: no spinner row and no progress line left on the screen.
      expect(end).not.toMatch(/[◐◓◑◒]|running · elapsed/);
    },
    T,
  );

  it(
    'Ctrl-C mid-run: the stop message stays on screen and no stale live row is left above it',
    async () => {
      const dir = project(false);
      runInTmux('interrupt', dir);
      const screen = () => tmux('capture-pane', '-p', '-t', 'interrupt');
      expect(await waitFor(() => /\[0\/2\] · 2 running/.test(screen()), 30_000), screen()).toBe(true);
      tmux('send-keys', '-t', 'interrupt', 'C-c');
      expect(await waitFor(() => screen().includes('EXIT='), 30_000), screen()).toBe(true);
      const end = screen();
      expect(end).toContain('EXIT=130');
      expect(end).toContain('SIGINT received: stopping running jobs');
      expect(end).toContain('Press Ctrl-C again to exit immediately.');
      expect(end).toMatch(/^ {2}○ alpha +bot +cancelled /m);
      // The frame drawn before the signal was cleared, not left behind with jobs "running".
      expect(end).not.toMatch(/[◐◓◑◒]|running · elapsed/);
    },
    T,
  );
});

/** Runs `axis <args>` in a pseudo-terminal (`script`) of the given size; resolves its bytes and exit code. */
function inPty(dir: string, size: string, args: string): Promise<{ code: number | null; out: string }> {
  const cmd = `stty ${size}; exec ${process.execPath} ${BIN} ${args}`;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, out })));
}

/** The pty's bytes without escape sequences and carriage returns: the lines as a reader sees them. */
// eslint-disable-next-line no-control-regex
const plain = (out: string) => out.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/** The header, both jobs' lines and the gate: every line of the two-job run above the summary. */
function expectEveryLine(text: string): void {
  expect(text).toMatch(/^AXIS: 2 scenarios · 1 agent · 2 jobs · concurrency 1$/m);
  expect(text).toMatch(/^ {2}✓ alpha +bot +completed +\S+ +[\d,]+ tokens$/m);
  expect(text).toMatch(/^ {2}✓ beta +bot +completed +\S+ +[\d,]+ tokens$/m);
  expect(text).toMatch(/^Gate: pass · no thresholds · no baseline \(checked only that pairs completed\)$/m);
}

describe('terminals of no size or one row', () => {
  it(
    'a pseudo-terminal of 0 rows and 0 columns (a CI runner, `script` in a pipe) still gets every line',
    async () => {
      const dir = project(true);
      const r = await inPty(dir, 'rows 0 cols 0', 'run --no-score --concurrency 1');
      const text = plain(r.out);
      expect(r.code, text).toBe(0);
      expectEveryLine(text);
      // Plain lines: no live frames, so the cursor is never hidden.
      expect(r.out).not.toContain('\u001b[?25l');
      expect(text).not.toMatch(/running · elapsed/);
    },
    T,
  );

  it(
    'a terminal one row high keeps the live area and still writes every line above it',
    async () => {
      const dir = project(true);
      const r = await inPty(dir, 'rows 1 cols 120', 'run --no-score --concurrency 1');
      const text = plain(r.out);
      expect(r.code, text).toBe(0);
      expect(r.out).toContain('\u001b[?25l');
      expectEveryLine(text);
    },
    T,
  );
});

describe('stdout redirected from a terminal', () => {
  it(
    '`axis run > file`: the summary in the file has no colour codes; the terminal keeps its colours',
    async () => {
      const dir = project(true);
      const cmd = `stty rows 40 cols 120; exec ${process.execPath} ${BIN} run --no-score > out.txt`;
      const env = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined };
      const out = execFileSync('script', ['-qfec', cmd, '/dev/null'], { cwd: dir, env, encoding: 'utf8' });
      const file = readFileSync(join(dir, 'out.txt'), 'utf8');
      expect(file).toMatch(
        /^Gate: pass · no thresholds · no baseline \(checked only that pairs completed\)$/m,
      );
      expect(file).not.toContain('\u001b[');
      expect(out).toContain('\u001b[32m✓\u001b[39m alpha');
    },
    T,
  );
});

describe('--json on a terminal', () => {
  it(
    'no live display and no colour codes: plain lines on stderr, the document on stdout',
    async () => {
      const dir = project(true);
      const cmd = `stty rows 40 cols 120; exec ${process.execPath} ${BIN} run --no-score --json > doc.json`;
      const env = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined };
      const out = execFileSync('script', ['-qfec', cmd, '/dev/null'], { cwd: dir, env, encoding: 'utf8' });
      expect(JSON.parse(readFileSync(join(dir, 'doc.json'), 'utf8'))).toHaveProperty('reportId');
      expect(out).toMatch(/^ {2}▶ alpha +bot +started\r?$/m);
      expect(out).toMatch(/^ {2}✓ beta +bot +completed /m);
      expect(out).not.toContain('\u001b[');
    },
    T,
  );
});

describe('off a TTY', () => {
  it(
    'one plain line per job start and end, then the summary; NO_COLOR plain, FORCE_COLOR coloured',
    async () => {
      const dir = project(true);
      const r = await axis(['run', '--no-score', '--concurrency', '1'], dir);
      expect(r.code, r.stderr).toBe(0);
      const masked = r.stdout
        .replace(/\d+(\.\d+)?(ms|s)\b/g, '<t>')
        .replace(/[\d,]+ tokens/g, '<n> tokens')
        .replace(/\d{4}-\d{2}-\d{2}-\d{6}(-\d+)?/g, '<id>');
      expect(masked.split('\n')).toEqual([
        'AXIS: 2 scenarios · 1 agent · 2 jobs · concurrency 1',
        '  ▶ alpha       bot         started',
        '  ✓ alpha       bot         completed         <t>      <n> tokens',
        '  ▶ beta        bot         started',
        '  ✓ beta        bot         completed         <t>      <n> tokens',
        '',
        '2 pairs: 2 completed, 0 failed · <t> · <n> tokens',
        '',
        '  scenario  agent  status     AXIS  goal  env  service  agent',
        '  alpha     bot    completed     –     –    –        –      –',
        '  beta      bot    completed     –     –    –        –      –',
        'Gate: pass · no thresholds · no baseline (checked only that pairs completed)',
        'Report saved: .axis/reports/<id>',
        '  report.json (summary), report.html (open in a browser),',
        "  scenarios/ (each run's detail and raw output)",
        'View it: axis reports <id>   ·',
        '  in a browser: axis reports <id> --html',
        '',
      ]);
      expect(r.stdout).not.toContain('\u001b[');

      const colored = await axis(['run', '--no-score', '-s', 'alpha'], dir, {
        NO_COLOR: undefined,
        FORCE_COLOR: '1',
      });
      expect(colored.stdout).toContain('\u001b[32m✓\u001b[39m alpha');
    },
    T,
  );

  it(
    '--json prints exactly one document: the report, or { error } for a config error (exit 2)',
    async () => {
      const dir = project(true);
      const ok = await axis(['run', '--no-score', '--json', '-s', 'alpha'], dir);
      expect(ok.code, ok.stderr).toBe(0);
      const doc = JSON.parse(ok.stdout) as { reportId: string; verdict: { pass: boolean } };
      expect(doc.verdict.pass).toBe(true);
      // The terminal lines moved to stderr.
      expect(ok.stderr).toContain('✓ alpha');

      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({ scenarios: './scenarios', agents: [{ agent: 'nope' }] }),
      );
      const bad = await axis(['run', '--json'], dir);
      expect(bad.code).toBe(2);
      const err = JSON.parse(bad.stdout) as {
        error: { kind: string; exitCode: number; issues: { text: string }[] };
      };
      expect(err.error.kind).toBe('config');
      expect(err.error.exitCode).toBe(2);
      expect(err.error.issues[0]!.text).toContain('axis.config.json: agents[0]');
      expect(bad.stderr).toContain('Invalid configuration');

      const flag = await axis(['run', '--json', '--reporter', 'junt'], dir);
      expect(flag.code).toBe(2);
      expect(JSON.parse(flag.stdout)).toEqual({
        error: { kind: 'usage', exitCode: 2, message: expect.stringContaining('unknown reporter "junt"') },
      });
      expect(existsSync(join(dir, '.axis'))).toBe(true);
    },
    T,
  );

  it(
    '--reporter json with -o: stdout holds the document only, as with --json',
    async () => {
      const dir = project(true);
      const r = await axis(['run', '--no-score', '-s', 'alpha', '--reporter', 'json', '-o', 'out'], dir);
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as { reportId: string };
      expect(existsSync(join(dir, 'out', `axis-report-${doc.reportId}.json`))).toBe(true);
    },
    T,
  );

  it(
    '--failed with --reporter json: stdout holds the document only, whether pairs are re-run or none are',
    async () => {
      const dir = project(true);
      const setup = [{ action: 'run_script', command: 'test ! -f "$AXIS_CONFIG_DIR/broken"' }];
      writeFileSync(
        join(dir, 'scenarios', 'alpha.json'),
        JSON.stringify({ name: 'alpha', prompt: 'do alpha', judge: [{ check: 'done' }], setup }),
      );
      writeFileSync(join(dir, 'broken'), '');
      expect((await axis(['run', '--no-score'], dir)).code).toBe(1);
      rmSync(join(dir, 'broken'));
      const rerun = await axis(['run', '--no-score', '--failed', '--reporter', 'json'], dir);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(JSON.parse(rerun.stdout)).toHaveProperty('rerunOf');
      expect(rerun.stderr).toContain('Re-running 1 failed pair(s)');
      const none = await axis(['run', '--no-score', '--failed', '--reporter', 'json,json=none.json'], dir);
      expect(none.code, none.stderr).toBe(0);
      const doc = JSON.parse(none.stdout) as unknown;
      expect(doc).toEqual({ rerunOf: expect.any(String), results: [] });
      expect(JSON.parse(readFileSync(join(dir, 'none.json'), 'utf8'))).toEqual(doc);
    },
    T,
  );

  it(
    '--reporter json and json=file get the { error } document too when the run fails before its report',
    async () => {
      const dir = project(true, { beforeAll: [{ action: 'run_script', command: 'exit 3' }] });
      const r = await axis(['run', '--no-score', '--reporter', 'json,json=out/doc.json'], dir);
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as { error: { message: string; exitCode: number } };
      expect(doc.error.message).toContain('beforeAll failed');
      expect(doc.error.exitCode).toBe(1);
      expect(JSON.parse(readFileSync(join(dir, 'out/doc.json'), 'utf8'))).toEqual(doc);
    },
    T,
  );

  it(
    '--json stays one document when a reporter file cannot be written after it (exit 1, said on stderr)',
    async () => {
      const dir = project(true);
      const r = await axis(
        ['run', '--no-score', '--json', '-s', 'alpha', '--reporter', 'junit=/dev/full'],
        dir,
      );
      expect(r.code).toBe(1);
      const doc = JSON.parse(r.stdout) as { reportId?: string; error?: unknown };
      expect(doc.reportId).toBeDefined();
      expect(doc.error).toBeUndefined();
      expect(r.stderr).toContain('junit reporter: Cannot write /dev/full');
    },
    T,
  );

  it(
    '--reporter junit=file and github (GITHUB_ACTIONS) write their outputs; -v shows the spawned command',
    async () => {
      const dir = project(true);
      const summary = join(dir, 'step-summary.md');
      const r = await axis(
        ['run', '--no-score', '-v', '--reporter', 'junit=out/axis.xml', '-s', 'alpha'],
        dir,
        {
          GITHUB_ACTIONS: 'true',
          GITHUB_STEP_SUMMARY: summary,
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('JUnit report: out/axis.xml');
      expect(existsSync(join(dir, 'out/axis.xml'))).toBe(true);
      expect(r.stderr).toMatch(/\[alpha · bot\] spawn: \S*node \S*agent\.mjs/);
      expect(existsSync(summary)).toBe(true);
    },
    T,
  );
});
