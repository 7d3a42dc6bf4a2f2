/**
 * The scenario token limit, end to end: one `run()` with every built-in adapter and its real CLI against
 * the simulator, in a child process inside a loopback-only network namespace when permitted (as
 * cli-harness.ts does). The tape takes four model turns (three shell steps, then the answer); the limit
 * is below what a single turn reports, so every job must end `limit_exceeded`, with no process left.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobResult } from '../../../src/report/job-result.js';
import { netnsAvailable } from './cli-harness.js';
import { ROOT } from './helpers.js';

// Far below one turn: the simulator counts ⌈request body / 4⌉ input tokens, and every CLI's first request
// (system prompt + tool definitions) is 7,700 (opencode) to 19,300 (Qwen Code) tokens.
const TOKEN_LIMIT = 2000;
const TAPE_TURNS = 4;
const T = 150_000;

/**
 * `live`: the CLI reports usage per model turn while it runs, so the runner stops it after the first
 * turn. Codex (turn.completed) and Gemini (the final result) report usage only at the end: the tape runs
 * out, and the job is still `limit_exceeded` because usage over the limit at the end counts.
 */
const AGENTS = [
  { name: 'claude-code', entry: 'claude-code', live: true },
  { name: 'codex', entry: 'codex', live: false },
  { name: 'gemini', entry: { agent: 'gemini', name: 'gemini', model: 'gemini-2.5-flash' }, live: false },
  { name: 'qwen-code', entry: 'qwen-code', live: true },
  { name: 'opencode', entry: 'opencode', live: true },
] as const;

const TAPE = {
  name: 'three steps',
  turns: [
    { text: 'Step one.', tools: [{ shell: 'echo one >> steps.txt' }] },
    // The delay keeps a live-reporting CLI, stopped after the first turn, from racing ahead.
    { text: 'Step two.', tools: [{ shell: 'echo two >> steps.txt' }], delay_ms: 1500 },
    { text: 'Step three.', tools: [{ shell: 'echo three >> steps.txt' }] },
    { text: 'All three steps ran.' },
  ],
};

/**
 * Runs in the child: `run()` from dist/ (built by test/global-setup.ts), while scanning /proc every 50 ms for the
 * processes of each job (found by their HOME, the job's home dir). After the run it scans once more:
 * a process of a job, or any live member of a process group a job's process was in, is a leftover.
 */
const RUNNER = `
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const [root, project, outFile, netns] = process.argv.slice(2);
if (netns === '1') {
  const up = spawnSync('ip', ['link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (up.status !== 0) throw new Error('ip link set lo up failed: ' + up.stderr);
}
const { run } = await import(pathToFileURL(join(root, 'dist/runner/run.js')).href);

const homes = new Map();
const seen = {};
function processes() {
  const out = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync('/proc/' + pid + '/stat', 'utf8');
      const [state, , pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      const home = readFileSync('/proc/' + pid + '/environ', 'utf8').split('\\0').find((v) => v.startsWith('HOME='));
      out.push({ pid: Number(pid), pgid: Number(pgid), home: home?.slice(5) });
    } catch {}
  }
  return out;
}
function scan() {
  for (const p of processes()) {
    const agent = homes.get(p.home);
    if (agent) (seen[agent] ??= {})[p.pid] = p.pgid;
  }
}
const timer = setInterval(scan, 50);
const tokenEvents = {};
const out = await run({
  configPath: project,
  cwd: project,
  verbose: true,
  onEvent: (e) => {
    const m = e.type === 'log' && e.job && /^workspace (.+)$/.exec(e.message);
    if (m) homes.set(join(m[1], 'home'), e.job.agentName);
    if (e.type === 'job_tokens') (tokenEvents[e.job.agentName] ??= []).push(e.total);
  },
});
clearInterval(timer);
const groups = new Map(Object.entries(seen).flatMap(([agent, s]) => Object.values(s).map((g) => [g, agent])));
const leftovers = processes()
  .map((p) => ({ ...p, agent: homes.get(p.home) ?? groups.get(p.pgid) }))
  .filter((p) => p.agent);
writeFileSync(outFile, JSON.stringify({ results: out.results, seen, tokenEvents, leftovers }));
`;

interface Report {
  results: JobResult[];
  /** agent → pid → process group, of every job process seen while the run went on. */
  seen: Record<string, Record<string, number>>;
  tokenEvents: Record<string, number[]>;
  leftovers: { pid: number; pgid: number; home?: string; agent: string }[];
}

function write(path: string, content: string | object): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

async function runInChild(dir: string): Promise<Report> {
  const outFile = join(dir, 'out.json');
  const netns = netnsAvailable();
  const args = [join(dir, 'runner.mjs'), ROOT, join(dir, 'project'), outFile, netns ? '1' : '0'];
  const child = spawn(
    netns ? 'unshare' : process.execPath,
    netns ? ['-n', process.execPath, ...args] : args,
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const guard = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }, T - 10_000);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  if (!existsSync(outFile))
    throw new Error(`the run did not finish (exit ${String(code)}):\n${output.slice(-4000)}`);
  return JSON.parse(readFileSync(outFile, 'utf8')) as Report;
}

describe('scenario token limit with every built-in CLI against the simulator', () => {
  let dir: string;
  let report: Report;
  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-token-limit-')));
    write(join(dir, 'runner.mjs'), RUNNER);
    const project = join(dir, 'project');
    write(join(project, 'axis.config.json'), {
      scenarios: './scenarios',
      agents: AGENTS.map((a) => a.entry),
      settings: {
        concurrency: AGENTS.length,
        simulate: true,
        limits: { scenario: { time_minutes: 1.5 } },
      },
    });
    write(join(project, 'scenarios/steps.json'), {
      name: 'three steps',
      prompt: 'Run the three steps, one command at a time.',
      judge: [{ check: 'all three steps ran' }],
      limits: { tokens: TOKEN_LIMIT },
      artifacts: ['steps.txt'],
    });
    write(join(project, 'tapes/steps.json'), TAPE);
    report = await runInChild(dir);
  }, T);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const resultOf = (name: string): JobResult => {
    const r = report.results.find((x) => x.agentName === name);
    if (!r) throw new Error(`no result for ${name}: ${report.results.map((x) => x.agentName).join(', ')}`);
    return r;
  };
  const why = (r: JobResult) =>
    JSON.stringify(
      {
        status: r.status,
        reason: r.reason,
        error: r.transcript.error,
        usage: r.transcript.usage,
        simulator: r.simulator,
        tokens: report.tokenEvents[r.agentName],
        events: r.transcript.events.slice(0, 20),
      },
      null,
      1,
    ).slice(0, 6000);
  /** Lines of steps.txt the agent wrote (captured as an artifact before the workspace went). */
  const steps = (r: JobResult): string[] => {
    const artifactsDir = r.files?.artifactsDir;
    if (!artifactsDir || !r.artifacts.some((a) => a.path === 'steps.txt' && !a.skipped)) return [];
    const store = join(dir, 'project/.axis/reports', readdirOne(join(dir, 'project/.axis/reports')));
    return readFileSync(join(store, artifactsDir, 'steps.txt'), 'utf8')
      .trim()
      .split('\n');
  };

  for (const agent of AGENTS) {
    it(`${agent.name}: the job ends limit_exceeded naming the token limit, and its processes are gone`, () => {
      const r = resultOf(agent.name);
      expect(r.status, why(r)).toBe('limit_exceeded');
      expect(r.errorClass, why(r)).toBe('limit_exceeded');
      expect(r.reason, why(r)).toBe(`Scenario token limit reached (${TOKEN_LIMIT} tokens)`);
      const used = r.transcript.usage;
      expect(used.input + used.output, why(r)).toBeGreaterThan(TOKEN_LIMIT);
      // The agent ran (the scan saw its processes) and nothing of it is left: no process with the job's
      // HOME, no live member of any process group those processes were in.
      expect(Object.keys(report.seen[agent.name] ?? {}).length, why(r)).toBeGreaterThan(0);
      expect(report.leftovers.filter((p) => p.agent === agent.name)).toEqual([]);
    });

    if (agent.live) {
      it(`${agent.name}: reports usage live, so the run is stopped before the tape finished`, () => {
        const r = resultOf(agent.name);
        expect(report.tokenEvents[agent.name]?.[0], why(r)).toBeGreaterThan(TOKEN_LIMIT);
        // Side calls (titles) count as requests too; still fewer than the tape's turns.
        expect(r.simulator?.requests, why(r)).toBeLessThan(TAPE_TURNS);
        expect(
          r.simulator?.events.map((e) => e.type),
          why(r),
        ).not.toContain('tape_exhausted');
        expect(steps(r).length, why(r)).toBeLessThan(3);
      });
    } else {
      it(`${agent.name}: reports usage only at the end, which still counts as exceeded`, () => {
        const r = resultOf(agent.name);
        // One usage report, at the end, after the whole tape was played.
        expect(report.tokenEvents[agent.name], why(r)).toHaveLength(1);
        expect(r.simulator?.requests, why(r)).toBeGreaterThanOrEqual(TAPE_TURNS);
        expect(steps(r), why(r)).toEqual(['one', 'two', 'three']);
      });
    }
  }
});

function readdirOne(path: string): string {
  const [only, ...rest] = readdirSync(path);
  if (!only || rest.length > 0) throw new Error(`expected one entry in ${path}`);
  return only;
}
