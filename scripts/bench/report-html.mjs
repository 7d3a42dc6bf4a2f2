// report.html size and render time on synthetic suites of long runs (~40 tool calls each, file-like tool
// output, a judge rationale on every audit): 20 scenarios × 1 run and 20 scenarios × 3 runs.
// Imports the built modules from dist/ (npm run bench builds first). Run alone: `node scripts/bench/report-html.mjs`.
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { toHtmlReportData } from '../../dist/report/html/map.js';
import { renderReportHtml } from '../../dist/report/html/render.js';

export const name = 'report.html: size of a 20-scenario suite';

const SCENARIOS = 20;
const TOOLS = 40;
const T0 = 1_700_000_000_000;

let seed = 7;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const WORDS = (
  'const let return function import export from await async if else for while switch case break ' +
  'value result error config options request response handler server client route path file data ' +
  'item items index count total user users post posts title body status message payload token cache ' +
  'build test deploy schema field type string number boolean array object null undefined true false ' +
  'create update delete read write list find filter map reduce push pop slice join split parse ' +
  'render component props state effect context store action reducer query mutation fetch json yaml'
).split(' ');
const word = () => WORDS[rand(WORDS.length)];
const camel = () => {
  const next = word();
  return `${word()}${next[0].toUpperCase()}${next.slice(1)}`;
};

/** A project's vocabulary: the identifiers and files one run keeps coming back to. */
function project() {
  const idents = Array.from({ length: 60 }, camel);
  const files = Array.from({ length: 40 }, () => `src/${word()}/${camel()}.ts`);
  return { ident: () => idents[rand(idents.length)], file: () => files[rand(files.length)] };
}

/** Code- or log-like text with realistic compressibility (~4× under deflate). */
function fileText(p, lines) {
  let out = '';
  for (let i = 0; i < lines; i++) {
    const indent = '  '.repeat(rand(4));
    switch (rand(5)) {
      case 0:
        out += `${indent}const ${p.ident()} = await ${p.ident()}(${p.ident()}, { ${word()}: ${rand(100)} });\n`;
        break;
      case 1:
        out += `${indent}if (${p.ident()}.${word()} !== ${p.ident()}) return ${p.ident()};\n`;
        break;
      case 2:
        out += `${indent}// ${word()} ${word()} ${word()} ${word()} ${word()} ${word()}\n`;
        break;
      case 3:
        out += `${indent}export function ${p.ident()}(${p.ident()}: ${word()}): ${word()} {\n`;
        break;
      default:
        out += `${new Date(T0 + rand(1e7)).toISOString()} ${['INFO', 'WARN', 'DEBUG'][rand(3)]} ${p.ident()} ${word()} ${rand(999)}ms\n`;
    }
  }
  return out;
}

/** Tool mix of a coding agent: reads dominate; outputs from a couple of lines to a whole file. */
function run(index) {
  const p = project();
  const events = [
    { kind: 'user', text: `Implement the ${p.ident()} feature and make the tests pass.`, ts: T0 },
  ];
  let t = T0 + 2_000;
  for (let i = 0; i < TOOLS; i++) {
    events.push({
      kind: 'text',
      text: `I'll ${word()} ${p.ident()} in ${p.file()} next, then ${word()} ${p.ident()}.`,
      ts: t,
      tsSource: 'agent',
    });
    t += 1_500 + rand(3_000);
    const tool = ['Read', 'Read', 'Bash', 'Edit', 'Grep'][rand(5)];
    const input =
      tool === 'Bash'
        ? { command: `npm run ${word()} -- --${word()} ${p.ident()}` }
        : tool === 'Edit'
          ? {
              file_path: p.file(),
              old_string: fileText(p, 2 + rand(8)),
              new_string: fileText(p, 2 + rand(10)),
            }
          : tool === 'Grep'
            ? { pattern: p.ident(), path: 'src' }
            : { file_path: p.file() };
    const output =
      tool === 'Read'
        ? fileText(p, 40 + rand(80))
        : tool === 'Bash'
          ? fileText(p, 5 + rand(55))
          : tool === 'Grep'
            ? Array.from(
                { length: 3 + rand(17) },
                () => `${p.file()}:${rand(300)}:  ${p.ident()}(${p.ident()})`,
              ).join('\n')
            : 'The file has been updated.';
    events.push({ kind: 'tool_call', id: `call_${index}_${i}`, name: tool, input, ts: t, tsSource: 'agent' });
    t += 200 + rand(4_000);
    events.push({
      kind: 'tool_result',
      callId: `call_${index}_${i}`,
      output,
      isError: rand(8) === 0,
      ts: t,
      tsSource: 'agent',
    });
  }
  events.push({ kind: 'text', text: `Done: ${fileText(p, 3)}`, ts: t + 1_000, tsSource: 'agent' });
  return { events, startedAt: T0 };
}

const ident = camel;

function dimension(category, ids) {
  return {
    score: 70 + rand(30),
    notApplicable: false,
    raw: 0.8,
    dimensions: {
      success: 80 + rand(20),
      speed: 70 + rand(30),
      weight: null,
      relevance: null,
      necessity: null,
    },
    audits: ids.map((id) => ({
      interactionId: id,
      category,
      success: rand(8) === 0 ? 0 : 1,
      speed: [1, 1, 0.75, 0.5][rand(4)],
      relevance: 1,
      weight: 1,
      rationale: `The ${word()} call ${word()} the ${ident()} ${word()}; ${word()} ${word()} ${word()} ${ident()}.`,
      source: rand(2) ? 'judge' : 'signal',
    })),
    interactionCount: ids.length,
    auditedCount: ids.length,
    judgedCount: Math.floor(ids.length / 2),
  };
}

function score() {
  const all = Array.from({ length: 2 * TOOLS + 1 }, (_, i) => i + 1);
  const tools = all.filter((i) => i % 2 === 0);
  return {
    status: 'scored',
    axisScore: 70 + rand(30),
    goalAchievement: {
      score: 60 + rand(40),
      notApplicable: false,
      criteria: Array.from({ length: 5 }, () => ({
        check: `The ${ident()} ${word()} ${word()} the ${ident()}`,
        weight: 0.2,
        score: rand(11),
        rationale: `The ${ident()} ${word()} ${word()} ${word()} because ${word()} ${ident()} ${word()} ${word()} ${word()}.`,
        kind: 'judge',
      })),
    },
    environment: dimension('environment', tools.slice(0, 30)),
    service: dimension('service', tools.slice(30)),
    agent: dimension('agent', all),
    weights: { goal_achievement: 0.4, environment: 0.2, service: 0.2, agent: 0.2 },
    configuredWeights: { goal_achievement: 0.4, environment: 0.2, service: 0.2, agent: 0.2 },
    notApplicable: [],
    patterns: [
      {
        kind: 'retry',
        description: `Re-ran ${ident()}`,
        interactionIds: [2, 4],
        severity: 'medium',
        source: 'judge',
      },
    ],
    necessity: { score: 0.8, unnecessaryIds: [4, 10], rationale: `Read ${ident()} twice.` },
  };
}

export function suite(runs) {
  const results = [];
  const details = [];
  for (let s = 0; s < SCENARIOS; s++) {
    results.push({
      scenarioKey: `suite/scenario-${s}`,
      scenarioName: `Scenario ${s}`,
      agentName: 'claude-code',
      representativeRun: 1,
    });
    details.push(
      Array.from({ length: runs }, (_, r) => ({
        runIndex: r + 1,
        durationMs: 120_000,
        tokenUsage: { input: 200_000, output: 8_000, cacheReadInput: 150_000 },
        totalCostUsd: 0.8,
        score: score(),
        transcript: run(s * 10 + r),
        setupOutput: `## Setup\n\n- seeded ${rand(100)} rows\n- cache ${word()} ${ident()}`,
      })),
    );
  }
  return {
    manifest: {
      reportId: '2026-01-01-000000',
      timestamp: new Date(T0).toISOString(),
      durationMs: 1e6,
      results,
    },
    details,
  };
}

function measure(runs) {
  const { manifest, details } = suite(runs);
  const start = performance.now();
  const data = toHtmlReportData(manifest, details);
  const html = renderReportHtml(data);
  const ms = performance.now() - start;
  const events = data.pairs.flatMap((p) => p.runs.flatMap((r) => r.events));
  const shortened = events.filter((e) => e.truncated).length;
  const textChars = details
    .flat()
    .reduce(
      (a, d) =>
        a +
        d.transcript.events.reduce((b, e) => b + (e.output ?? e.text ?? JSON.stringify(e.input)).length, 0),
      0,
    );
  return {
    bytes: Buffer.byteLength(html),
    ms,
    shortened,
    events: events.length,
    perRun: Math.round(textChars / details.flat().length),
  };
}

const mb = (b) => `${(b / 1e6).toFixed(2)} MB`;

export default async function bench() {
  const one = measure(1);
  const three = measure(3);
  return [
    { label: `transcript text per run (synthetic)`, value: `${(one.perRun / 1000).toFixed(0)}k chars` },
    { label: '20 scenarios × 1 run: report.html', value: mb(one.bytes), target: '< 0.6 MB' },
    {
      label: '20 scenarios × 1 run: texts shortened to fit the run budget',
      value: `${one.shortened} of ${one.events}`,
    },
    { label: '20 scenarios × 1 run: map + render time', value: `${one.ms.toFixed(0)} ms` },
    { label: '20 scenarios × 3 runs: report.html', value: mb(three.bytes), target: 'far < 3 MB' },
    { label: '20 scenarios × 3 runs: map + render time', value: `${three.ms.toFixed(0)} ms` },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await bench()) {
    console.log(
      `${row.label.padEnd(60)} ${String(row.value).padStart(10)}${row.target ? `   (target: ${row.target})` : ''}`,
    );
  }
}
