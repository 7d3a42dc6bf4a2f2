// One ~20 MB transcript scored end to end by `axis run`: the `command` agent prints the synthetic run of
// scoring.mjs as AXIS NDJSON, the simulator's judge answers every question from the tape (each batch
// about its own ids, see tapeFor), and AXIS parses, scores and writes the report (detail file, raw lines, sparse index, report.json, report.html).
// Timed as a whole process beside two floors measured in the same passes: a Node script spawning the
// same `cat` and splitting its 20 MB into lines, and one that also stores the run the way any tool that
// keeps a transcript must (a raw copy, every line parsed, the events as one pretty-printed JSON file):
// lib/store-floor.mjs. The second says how much of the target is left for scoring and the reports.
import { Buffer } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parserFor } from '../../dist/transcript/registry.js';
import {
  AXIS_BIN,
  discard,
  FLOOR_SCRIPT,
  fmtRatio,
  STORE_FLOOR_SCRIPT,
  interleave,
  loadAverage,
  median,
  PASSES,
  tempDir,
  timeNode,
} from './lib/measure.mjs';
import { machineProfile } from './lib/machine.mjs';
import { syntheticEvents } from './scoring.mjs';
import { tapeFor } from './scoring-whole.mjs';

export const name = 'scoring: one 20 MB transcript end to end (`axis run`, simulator judge)';

/** The synthetic transcript events as AXIS NDJSON lines. */
function toNdjson(events) {
  const lines = [];
  for (const e of events) {
    if (e.kind === 'text' || e.kind === 'thinking') lines.push({ type: e.kind, text: e.text, ts: e.ts });
    else if (e.kind === 'tool_call')
      lines.push({ type: 'tool_call', id: e.id, name: e.name, input: e.input, ts: e.ts });
    else if (e.kind === 'tool_result')
      lines.push({
        type: 'tool_result',
        id: e.callId,
        output: e.output,
        is_error: e.isError,
        ...(e.exitCode !== undefined ? { exit_code: e.exitCode } : {}),
        ...(e.httpStatus !== undefined ? { http_status: e.httpStatus } : {}),
        ts: e.ts,
      });
  }
  lines.push({ type: 'usage', input: 1_200_000, output: 90_000 });
  lines.push({ type: 'result', text: 'All posts are created and the test suite passes.' });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

export function makeProject() {
  const dir = tempDir('axis-bench-20mb-');
  const body = toNdjson(syntheticEvents().events);
  const file = join(dir, 'run.ndjson');
  writeFileSync(file, body);
  // The judge answers are computed from the events exactly as AXIS will parse them.
  const parser = parserFor('ndjson');
  for (const line of body.split('\n')) if (line) parser.push(line);
  const { tape } = tapeFor(parser.finish().events);
  mkdirSync(join(dir, 'tapes'));
  writeFileSync(join(dir, 'tapes', 'big.json'), JSON.stringify(tape));
  mkdirSync(join(dir, 'scenarios'));
  const scenario = {
    name: 'Synthetic 20 MB run',
    prompt: 'Create the posts in the CMS, run the tests and fix what fails.',
    judge: [
      { check: 'The posts were created in the CMS' },
      { check: 'The agent ran the tests and fixed failures' },
    ],
  };
  writeFileSync(join(dir, 'scenarios', 'big.json'), JSON.stringify(scenario));
  const agents = [
    { agent: 'command', name: 'claude-code', command: '/bin/cat', args: [file], output: 'ndjson' },
  ];
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents, settings: { simulate: true } }),
  );
  return { dir, file, bytes: Buffer.byteLength(body) };
}

/** Sizes of the newest report's files. */
function reportSizes(dir) {
  const root = join(dir, '.axis/reports');
  const id = readdirSync(root).sort().at(-1);
  const base = join(root, id);
  const size = (rel) => statSync(join(base, rel)).size;
  // Detail files are scenarios/<scenario key>/<agent>.json (before, this looked in scenarios/ itself,
  // found none and divided by report.json alone).
  const details = readdirSync(join(base, 'scenarios/big')).filter((f) =>
    /^claude-code(\.run-\d+)?\.json$/.test(f),
  );
  if (details.length === 0) throw new Error('no detail file found in the report');
  const detail = details.reduce((n, f) => n + size(`scenarios/big/${f}`), 0);
  return { html: size('report.html'), json: size('report.json') + detail, reportJson: size('report.json') };
}

/**
 * Where the newest run's time went, as AXIS itself recorded it: the job's phases (detail file `timings`),
 * the run's start and duration (report.json `timestamp`, `durationMs`, which ends once the results are
 * written), and when report.html was finished (its modification time, the last write before the rename).
 */
function phases(dir) {
  const root = join(dir, '.axis/reports');
  const base = join(root, readdirSync(root).sort().at(-1));
  const detail = JSON.parse(readFileSync(join(base, 'scenarios/big/claude-code.json'), 'utf8'));
  const report = JSON.parse(readFileSync(join(base, 'report.json'), 'utf8'));
  return {
    ...detail.timings,
    jobMs: detail.durationMs,
    runMs: report.durationMs,
    runStartMs: Date.parse(report.timestamp),
    htmlAtMs: statSync(join(base, 'report.html')).mtimeMs,
  };
}

/** The newest run's moments, in ms from its process's spawn: run start, results written, report.html, exit. */
function moments(ph, run) {
  const at = (ms) => Math.round(ms - run.startedAtMs);
  const start = at(ph.runStartMs);
  return `${start} / ${start + ph.runMs} / ${at(ph.htmlAtMs)} / ${run.ms.toFixed(0)} ms`;
}

export default async function bench() {
  const load = await loadAverage();
  const fresh = machineProfile();
  const p = makeProject();
  try {
    const runs = await interleave(
      {
        floor: () => timeNode([FLOOR_SCRIPT, '1', '1', '/bin/cat', p.file]),
        store: async () => {
          const out = tempDir('axis-bench-store-floor-');
          try {
            return await timeNode([STORE_FLOOR_SCRIPT, out, '/bin/cat', p.file]);
          } finally {
            discard(out);
          }
        },
        axis: async () => {
          const r = await timeNode([AXIS_BIN, 'run'], { cwd: p.dir });
          if (!r.stdout.includes('(1 scored'))
            throw new Error(`the run was not scored:\n${r.stdout.slice(-600)}`);
          return r;
        },
      },
      PASSES,
    );
    const t = (k) => median(runs[k].map((r) => r.ms));
    const cpu = (k) => median(runs[k].map((r) => r.cpuMs));
    const rss = median(runs.axis.map((r) => r.rssBytes)) / 2 ** 20;
    const sizes = reportSizes(p.dir);
    const ph = phases(p.dir);
    return [
      { label: 'machine load (1, 5, 15 min) at the start', value: load },
      { label: 'transcript (AXIS NDJSON on stdout)', value: `${(p.bytes / 2 ** 20).toFixed(1)} MB` },
      { label: 'axis run, whole process (median)', value: `${t('axis').toFixed(0)} ms`, target: '≤ 1000 ms' },
      { label: 'floor: node + spawn cat + split into lines', value: `${t('floor').toFixed(0)} ms` },
      { label: 'axis ÷ floor', value: fmtRatio(t('axis') / t('floor')) },
      {
        label: 'storing floor: + raw copy, lines parsed, events JSON',
        value: `${t('store').toFixed(0)} ms`,
      },
      {
        label: 'axis ÷ storing floor (the target is 1000 ms ÷ this)',
        value: `${fmtRatio(t('axis') / t('store'))} (${fmtRatio(1000 / t('store'))})`,
      },
      {
        // Each pass's pair (interleaved, so the two saw the same minute): a slow minute of a shared
        // machine moves both, slower code only AXIS's.
        label: '  each pass, in order: axis / storing floor',
        value:
          runs.axis.map((r, i) => `${r.ms.toFixed(0)}/${runs.store[i].ms.toFixed(0)}`).join(', ') + ' ms',
      },
      {
        label: 'process CPU (user + sys): axis / floor / storing floor',
        value: `${cpu('axis').toFixed(0)} / ${cpu('floor').toFixed(0)} / ${cpu('store').toFixed(0)} ms`,
      },
      {
        label: '  axis main thread CPU (the rest: V8 GC / compiler threads)',
        value: `${median(runs.axis.map((r) => r.mainThreadCpuMs)).toFixed(0)} ms`,
      },
      {
        label: 'last axis run: agent (read + parse) / scoring / job',
        value: `${ph.agentMs} / ${ph.afterAgentMs} / ${ph.jobMs} ms`,
      },
      {
        // Start-up (modules, config, tapes, the host's probes), the job and writing the results, report.html
        // built from the data in memory, and the process's exit, each from the spawn.
        label: '  from its spawn: run start / results / report.html / exit',
        value: moments(ph, runs.axis.at(-1)),
      },
      {
        // On a VM where a first touch costs ~10 µs (bench.mjs prints it first), these are a large part
        // of both figures: the estimate is faults × 4 KB × that machine's cost per MB.
        label: 'page faults: axis / storing floor (≈ ms at this machine’s cost)',
        value: (() => {
          const f = (k) => median(runs[k].map((r) => r.minorFaults));
          const ms = (n) => ((n * 4096) / 2 ** 20) * fresh.freshMsPerMb;
          return `${f('axis')} / ${f('store')} (${ms(f('axis')).toFixed(0)} / ${ms(f('store')).toFixed(0)} ms)`;
        })(),
      },
      {
        label: 'peak RSS: axis run / storing floor',
        value: `${rss.toFixed(0)} / ${(median(runs.store.map((r) => r.rssBytes)) / 2 ** 20).toFixed(0)} MB`,
        target: 'axis ≤ 300 MB',
      },
      {
        label: 'report.html ÷ report.json alone (the figure printed before)',
        value: `${(sizes.html / 2 ** 20).toFixed(2)} / ${(sizes.reportJson / 2 ** 20).toFixed(2)} MB = ${(sizes.html / sizes.reportJson).toFixed(3)}`,
      },
      {
        label: 'report.html ÷ JSON data (report.json + detail file)',
        value: `${(sizes.html / 2 ** 20).toFixed(2)} / ${(sizes.json / 2 ** 20).toFixed(2)} MB = ${(sizes.html / sizes.json).toFixed(3)}`,
        target: '≤ 0.25',
      },
    ];
  } finally {
    discard(p.dir);
  }
}
