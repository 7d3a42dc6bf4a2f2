// Shared by the bench scripts: child-process timing with peak RSS, medians, interleaved passes, and the
// throwaway projects the runner benches run. Not a bench itself (bench.mjs only runs scripts/bench/*.mjs).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const AXIS_BIN = join(here, '../../../bin/axis.js');
/** Preloaded into a measured Node child: reports its peak RSS and CPU time on exit. */
const RSS_HOOK = pathToFileURL(join(here, 'rss-hook.mjs')).href;

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Every throwaway dir of a bench process lives under one root, and nothing in it is deleted until the
 * benches are done (`removeBenchRoot`, called by bench.mjs): what a bench is done with is renamed into
 * the root's trash. On ext4 without a journal (these VMs) a new file's inode is found only after skipping
 * every inode of its block group freed in the last minute or more (`recently_deleted` in the kernel),
 * so one bench deleting its projects made the next bench's AXIS pay up to 0.45 ms per report file it
 * created, against 15 µs in a quiet place (docs/performance.md, "File creation"). The root is also
 * marked a top directory (`chattr +T`) where the file system allows it, so each project's directories
 * get a block group of their own, as a checkout does, instead of sharing /tmp's with every test run.
 */
let benchRoot;
let trashed = 0;

/**
 * The root, made once by bench.mjs and handed to each bench's own process in AXIS_BENCH_ROOT (a bench
 * run on its own makes its own).
 */
export function root() {
  if (benchRoot) return benchRoot;
  if (process.env.AXIS_BENCH_ROOT) return (benchRoot = process.env.AXIS_BENCH_ROOT);
  benchRoot = realpathSync(mkdtempSync(join(tmpdir(), 'axis-bench-')));
  spawnSync('chattr', ['+T', benchRoot], { stdio: 'ignore' });
  mkdirSync(join(benchRoot, '.trash'));
  return benchRoot;
}

export function tempDir(prefix) {
  return realpathSync(mkdtempSync(join(root(), prefix)));
}

/** Moves a dir or file the bench is done with into the trash: it is deleted when the benches end. */
export function discard(path) {
  try {
    renameSync(path, join(root(), '.trash', `${process.pid}-${trashed++}`));
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
}

/** Deletes the bench root and its trash (bench.mjs, after the last bench). */
export function removeBenchRoot() {
  if (benchRoot) rmSync(benchRoot, { recursive: true, force: true, maxRetries: 3 });
  benchRoot = undefined;
}

/**
 * Microseconds of one file creation (open with O_CREAT, then close) in `dir`, the median of `count`:
 * what each report file AXIS writes costs the kernel here, printed beside the runner's figures.
 */
export function fileCreationMicros(dir, count = 200) {
  const probe = mkdtempSync(join(dir, '.axis-bench-probe-'));
  const times = [];
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    closeSync(openSync(join(probe, String(i)), 'w'));
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  discard(probe);
  return median(times);
}

/**
 * CPU time the whole machine has spent busy so far (every process, every core: user, nice, system, irq,
 * softirq), in ms, from /proc/stat; NaN where there is none. Differences around a run say what the run
 * cost all its processes together (AXIS, its spawner, the jobs, a judge process), plus anything else the
 * machine did meanwhile.
 */
export function machineBusyMs() {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    return (f[0] + f[1] + f[2] + f[5] + f[6]) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Runs `node <args>` to completion; resolves { ms, startedAtMs, rssBytes, cpuMs, mainThreadCpuMs,
 * machineCpuMs, stdout, stderr, code } (`startedAtMs`: the epoch ms of the spawn, to place times the
 * child records on its clock within the process's life). Wall time is taken
 * around the whole process, start-up included, so figures from the same kind of child compare directly.
 */
export function timeNode(args, { cwd, env = {}, allowFail = false } = {}) {
  const rssFile = join(root(), `axis-bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolve, reject) => {
    const busyBefore = machineBusyMs();
    const start = process.hrtime.bigint();
    const startedAtMs = Date.now();
    const child = spawn(process.execPath, [`--import=${RSS_HOOK}`, ...args], {
      cwd,
      env: { ...process.env, ...env, AXIS_BENCH_RSS_FILE: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const machineCpuMs = machineBusyMs() - busyBefore;
      let usage = { rssBytes: NaN, cpuMs: NaN };
      try {
        usage = JSON.parse(readFileSync(rssFile, 'utf8'));
        discard(rssFile);
      } catch {
        // the child died before its exit hook
      }
      if (code !== 0 && !allowFail)
        return reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr.trim().slice(-400)}`));
      resolve({ ms, startedAtMs, ...usage, machineCpuMs, stdout, stderr, code });
    });
  });
}

/**
 * Runs each named task `passes` times, interleaved (A B C, A B C, …), so a change in machine load hits
 * every figure alike. Resolves name → list of results, in pass order (result i of every task is pass i).
 * `alternate`: every second pass runs the tasks in reverse (A B C, C B A, …), so no task always runs
 * right after the same neighbour, and a figure paired within a pass is not biased by the order.
 */
export async function interleave(tasks, passes, { alternate = false } = {}) {
  const out = Object.fromEntries(Object.keys(tasks).map((k) => [k, []]));
  for (let p = 0; p < passes; p++) {
    const entries = Object.entries(tasks);
    if (alternate && p % 2 === 1) entries.reverse();
    for (const [key, task] of entries) out[key].push(await task());
  }
  return out;
}

/**
 * What a kind of run adds per job over another (`scored` over `plain`), for one figure of the results
 * (`field`), from `interleave`'s results holding both kinds at `jobs` jobs and at one job (the kinds
 * `scored1` and `plain1`): the marginal cost per job of each kind, (at `jobs` − at one) ÷ (`jobs` − 1),
 * and their difference.
 * Paired (the default): worked out within each pass, from the four runs that pass made close together,
 * then the median over the passes, so a slower or faster stretch of the machine moves both kinds of a
 * pass alike. Unpaired: the difference of each kind's medians over all passes, which pairs runs of
 * different passes, so drift between passes moves it.
 */
export function addedPerJob(runs, field, scored, plain, jobs, { paired = true } = {}) {
  if (!paired) {
    const m = (k) => median(runs[k].map((r) => r[field]));
    const per = (k) => (m(k) - m(`${k}1`)) / (jobs - 1);
    return per(scored) - per(plain);
  }
  return median(addedPerPass(runs, field, scored, plain, jobs));
}

/** What `scored` added per job over `plain` in each pass, in the passes' order (their median is addedPerJob's). */
export function addedPerPass(runs, field, scored, plain, jobs) {
  const per = (k, i) => (runs[k][i][field] - runs[`${k}1`][i][field]) / (jobs - 1);
  return runs[scored].map((_, i) => per(scored, i) - per(plain, i));
}

/** A fixed AXIS NDJSON transcript: a short coding-agent run (two tool calls, usage, final answer). */
export function fixedTranscript() {
  const lines = [
    { type: 'text', text: 'Reading the project first.' },
    { type: 'tool_call', id: 'c1', name: 'shell', input: { command: 'ls' } },
    { type: 'tool_result', id: 'c1', output: 'package.json\nsrc\n', exit_code: 0 },
    { type: 'tool_call', id: 'c2', name: 'read_file', input: { path: 'package.json' } },
    { type: 'tool_result', id: 'c2', output: '{ "name": "demo", "version": "1.0.0" }', exit_code: 0 },
    { type: 'usage', input: 1200, output: 80 },
    { type: 'result', text: 'Done: the project is a Node package named demo.' },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/**
 * A project of `jobs` jobs (scenarios × 5 `command` agents, or one job when jobs = 1), each agent
 * `/bin/cat <transcript>` printing AXIS NDJSON. `simulate` adds a tape per scenario whose judge answers
 * every question at once (the "instant judge").
 */
export function makeRunnerProject(jobs, { simulate = false, concurrency = 15, judgeTape, judge } = {}) {
  const dir = tempDir('axis-bench-proj-');
  const agentsN = jobs >= 5 ? 5 : 1;
  const scenariosN = Math.ceil(jobs / agentsN);
  const transcript = join(dir, 'transcript.ndjson');
  writeFileSync(transcript, fixedTranscript());
  const agents = Array.from({ length: agentsN }, (_, i) => ({
    agent: 'command',
    name: `fixed-${i + 1}`,
    command: '/bin/cat',
    args: [transcript],
    output: 'ndjson',
  }));
  const keys = Array.from({ length: scenariosN }, (_, i) => `s${String(i).padStart(4, '0')}`);
  mkdirSync(join(dir, 'scenarios'));
  for (const [i, key] of keys.entries()) {
    const scenario = {
      name: `Scenario ${i}`,
      prompt: `Describe the project (${i}).`,
      judge: [{ check: 'It named the package' }],
    };
    writeFileSync(join(dir, 'scenarios', `${key}.json`), JSON.stringify(scenario));
  }
  const settings = { concurrency, ...(simulate ? { simulate: true } : {}) };
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents, settings, ...(judge ? { judge } : {}) }),
  );
  if (simulate) {
    // One tape per scenario (tapes/<key>.json), all the same.
    const tapes = join(dir, 'tapes');
    mkdirSync(tapes);
    const body = JSON.stringify(judgeTape ?? instantJudgeTape());
    for (const key of keys) writeFileSync(join(tapes, `${key}.json`), body);
  }
  return { dir, remove: () => discard(dir) };
}

/** Judge answers for the fixed transcript: every criterion graded, every interaction audited. */
export function instantJudgeTape() {
  const ids = [1, 2, 3, 4];
  const audits = ids.map((id) => ({ id, success: 0.9, rationale: 'fine' }));
  return {
    name: 'bench: instant judge',
    turns: [],
    judge: [
      {
        match: 'AXIS judge: goal',
        answer: { grades: [{ criterion_index: 0, score: 9, rationale: 'named it' }] },
      },
      { match: 'AXIS judge: environment', answer: { audits } },
      { match: 'AXIS judge: service', answer: { audits } },
      {
        match: 'AXIS judge: agent',
        answer: {
          audits: ids.map((id) => ({ id, weight: 1, relevance: 1, success: 1 })),
          necessity: { score: 1, unnecessaryIds: [], rationale: 'all needed' },
          patterns: [],
        },
      },
    ],
  };
}

export const fmtMs = (v) => `${v.toFixed(2)} ms`;
export const fmtRatio = (v) => `${v.toFixed(2)}×`;
export const FLOOR_SCRIPT = join(here, 'spawn-floor.mjs');
export const STORE_FLOOR_SCRIPT = join(here, 'store-floor.mjs');
export const JUDGE_FLOOR_SCRIPT = join(here, 'judge-floor.mjs');

/** Passes per figure (BENCH_PASSES); more passes, steadier medians. */
export const PASSES = Number(process.env.BENCH_PASSES ?? 3);

/** `uptime`'s load averages, printed with every timing so a reader can tell how busy the machine was. */
export async function loadAverage() {
  const { loadavg, cpus } = await import('node:os');
  return `${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;
}
