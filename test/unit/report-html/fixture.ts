/**
 * Synthetic report data for the HTML report tests: several pairs (one with 3 runs), scored /
 * unscored / failed runs, notes, artifacts (a text file, a PNG, a JSON file, a skipped file) and a
 * transcript full of injection payloads.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { ManifestInput, RunInput } from '../../../src/report/html/map.js';
import { failedScore } from '../../../src/scoring/index.js';
import type { Audit, Category, DimensionScore, ScoreResult } from '../../../src/scoring/types.js';
import type { TranscriptEvent } from '../../../src/transcript/model.js';

/** Each payload, if it ever ran, would set window.__pwned, change the title, open a dialog or add an element. */
export const PAYLOADS = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned=2;document.title=\'pwned\'">',
  '</script><script>window.__pwned = 3; alert(3)</script>',
  '<svg onload="window.__pwned=5"><script>window.__pwned=6</script></svg>',
  '"><iframe src="https://example.com/evil"></iframe><div id="pwned-marker">x</div>',
  '<a href="javascript:window.__pwned=7">click me</a>',
  '<style>body{display:none!important}</style>',
  '<img src="https://example.com/track.png">',
  '{{constructor.constructor("window.__pwned=8")()}} ${window.__pwned=9}',
  '<!-- </script> --><base href="https://example.com/">',
  '\u2028\u2029 </SCRIPT\t>&lt;script&gt;',
];
export const NASTY = PAYLOADS.join('\n');

export const NOTES_MD = [
  '## Workspace state',
  '',
  '- database **seeded** with `3` posts',
  '- [docs](https://example.com/docs) and [bad link](javascript:window.__pwned=10)',
  '',
  '| check | result |',
  '| --- | --- |',
  '| api | ok |',
  '',
  '```sh',
  'curl -s localhost:3000/health',
  '```',
  '',
  '<script>window.__pwned = 11</script>',
  '<img src=x onerror="window.__pwned=12">',
  '<a href="jav&#x09;ascript:window.__pwned=13">encoded</a>',
  '<div id="pwned-marker" onclick="window.__pwned=14">plain div text</div>',
].join('\n');

export const TEXT_ARTIFACT = 'hello from the workspace\n<script>window.__pwned = 15</script>\n';

export function pngBytes(width = 24, height = 16): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(x * 10, 120, y * 15);
  }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.from(rows))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

const T0 = 1_760_000_000_000;

/** A transcript of `tools` tool calls, with reasoning between them; `nasty` puts payloads everywhere. */
export function transcript(tools: number, nasty = false): { events: TranscriptEvent[]; startedAt: number } {
  const events: TranscriptEvent[] = [
    { kind: 'user', text: nasty ? `Do it. ${NASTY}` : 'Create a post', ts: T0 },
  ];
  let t = T0 + 1_500;
  for (let i = 0; i < tools; i++) {
    events.push({
      kind: 'text',
      text: nasty ? `Step ${i}: ${PAYLOADS[i % PAYLOADS.length]}` : `Step ${i}`,
      ts: t,
      tsSource: 'agent',
    });
    t += 1_200;
    const id = `call_${i}`;
    const name = ['Bash', 'Read', 'WebFetch', 'mcp__cms__create_post'][i % 4]!;
    const input =
      name === 'Bash'
        ? { command: nasty ? `echo '${PAYLOADS[i % PAYLOADS.length]}'` : `ls -la dir${i}` }
        : { path: `src/file${i}.ts` };
    events.push({ kind: 'tool_call', id, name, input, ts: t, tsSource: 'agent' });
    t += 300 + ((i * 1_370) % 3_600);
    const failed = i % 5 === 3;
    events.push({
      kind: 'tool_result',
      callId: id,
      output: nasty ? `${NASTY}\nline ${i}` : `output of ${name} #${i}\n`.repeat(3),
      isError: failed,
      ...(failed && name === 'Bash' ? { exitCode: 2 } : {}),
      ts: t,
      tsSource: 'agent',
    });
    t += 400;
  }
  if (nasty)
    events.push({ kind: 'error', message: `API error ${PAYLOADS[0]}`, errorClass: 'api_error', ts: t });
  events.push({
    kind: 'text',
    text: nasty ? `Done ${PAYLOADS[1]}` : 'Done.',
    ts: t + 200,
    tsSource: 'agent',
  });
  return { events, startedAt: T0 };
}

function dim(score: number | null, ids: number[], category: Category, notApplicable = false): DimensionScore {
  const audits: Audit[] = ids.map((id, k) => ({
    interactionId: id,
    category,
    success: k % 3 === 1 ? 0 : 1,
    speed: k % 4 === 2 ? 0.5 : 1,
    rationale: k % 3 === 1 ? `exit code 2 <b>${PAYLOADS[1]}</b>` : 'ok',
    source: k % 2 ? 'judge' : 'signal',
  }));
  return {
    score: notApplicable ? null : score,
    notApplicable,
    raw: score === null ? null : score / 100,
    dimensions: notApplicable
      ? { success: null, speed: null, weight: null, relevance: null, necessity: null }
      : {
          success: score === null ? null : score - 10,
          speed: 88,
          weight: category === 'agent' ? 70 : null,
          relevance: category === 'agent' ? 92 : null,
          necessity: category === 'agent' ? 55 : null,
        },
    audits: notApplicable ? [] : audits,
    interactionCount: ids.length,
    auditedCount: ids.length,
    judgedCount: Math.floor(ids.length / 2),
  };
}

export function score(
  axis: number,
  parts: { goal: number; env: number; svc: number | 'n/a'; agent: number },
): ScoreResult {
  const svcNa = parts.svc === 'n/a';
  return {
    status: 'scored',
    axisScore: axis,
    goalAchievement: {
      score: parts.goal,
      notApplicable: false,
      criteria: [
        { check: 'The post exists', weight: 0.6, score: 9, rationale: 'Found via the API.', kind: 'judge' },
        {
          check: `Title matches ${PAYLOADS[2]}`,
          weight: 0.4,
          score: 4,
          rationale: `Title differs: ${PAYLOADS[1]}`,
          kind: 'judge',
        },
      ],
    },
    environment: dim(parts.env, [2, 4, 6], 'environment'),
    service: dim(svcNa ? null : (parts.svc as number), svcNa ? [] : [6, 8], 'service', svcNa),
    agent: dim(parts.agent, [1, 2, 3, 4, 5], 'agent'),
    weights: { goal_achievement: 0.4, environment: 0.2, service: svcNa ? 0 : 0.2, agent: 0.2 },
    configuredWeights: { goal_achievement: 0.4, environment: 0.2, service: 0.2, agent: 0.2 },
    notApplicable: svcNa ? ['service'] : [],
    patterns: [
      {
        kind: 'retry',
        description: 'Re-ran the same failing command',
        interactionIds: [2, 4],
        severity: 'high',
        source: 'signal',
      },
    ],
    necessity: { score: 0.6, unnecessaryIds: [3, 5], rationale: 'Listed the same directory twice.' },
  };
}

export function unscored(reason: string): ScoreResult {
  const s = score(0, { goal: 80, env: 90, svc: 'n/a', agent: 70 });
  return {
    ...s,
    status: 'unscored',
    reason,
    axisScore: null,
    agent: { ...s.agent, score: null, unscoredReason: 'agent judge failed' },
  };
}

export interface Fixture {
  manifest: ManifestInput;
  details: RunInput[][];
}

const usage = (input: number, output: number, cacheReadInput = 0) => ({ input, output, cacheReadInput });

function tx(
  tools: number,
  u: ReturnType<typeof usage>,
  costUsd?: number,
  nasty = false,
): NonNullable<RunInput['transcript']> {
  return {
    ...transcript(tools, nasty),
    usage: u,
    exitCode: 0,
    ...(costUsd !== undefined ? { costUsd } : {}),
  };
}

/** Per-run detail objects and a manifest shaped like the report store writes them. */
export function fixture(): Fixture {
  const png = pngBytes();
  const detail = (key: string, agent: string, run?: number) =>
    run === undefined ? `scenarios/${key}/${agent}.json` : `scenarios/${key}/${agent}.run-${run}.json`;
  const repeated: RunInput[] = [
    {
      run: 1,
      status: 'completed',
      durationMs: 61_000,
      transcript: tx(12, usage(150_000, 4_200, 90_000), 0.4123),
      score: score(86, { goal: 88, env: 92, svc: 81, agent: 79 }),
      setupNotes: '## Run 1 setup\n\nseeded',
      files: { detail: detail('cms/create-post', 'claude-code', 1) },
    },
    {
      run: 2,
      status: 'completed',
      durationMs: 75_500,
      transcript: tx(20, usage(170_000, 5_000), 0.52),
      score: score(72, { goal: 60, env: 71, svc: 85, agent: 66 }),
      files: { detail: detail('cms/create-post', 'claude-code', 2) },
    },
    {
      run: 3,
      status: 'completed',
      durationMs: 58_000,
      transcript: tx(8, usage(140_000, 3_900), 0.39),
      score: score(91, { goal: 95, env: 93, svc: 88, agent: 84 }),
      files: { detail: detail('cms/create-post', 'claude-code', 3) },
    },
  ];
  const nasty: RunInput = {
    run: 1,
    status: 'completed',
    files: { detail: detail('hello-world', 'codex') },
    durationMs: 30_000,
    transcript: tx(6, usage(20_000, 1_000), 0.05, true),
    score: {
      ...score(93, { goal: 95, env: 96, svc: 'n/a', agent: 88 }),
      judge: { label: 'anthropic claude-sonnet-4-5' },
    },
    setupNotes: NOTES_MD,
    teardownNotes: `Teardown done ${PAYLOADS[0]}\n\n> quoted *note*`,
    artifacts: [
      {
        path: 'out/result.txt',
        size: TEXT_ARTIFACT.length,
        mimeType: 'text/plain',
        content: new TextEncoder().encode(TEXT_ARTIFACT),
      },
      { path: 'out/img/chart.png', size: png.length, mimeType: 'image/png', content: png },
      {
        path: 'data.json',
        size: 13,
        mimeType: 'application/json',
        content: Buffer.from('{"ok": true}\n').toString('base64'),
      },
      {
        path: 'big/dump.bin',
        size: 9_000_000,
        mimeType: 'application/octet-stream',
        skipped: 'larger than the per-file limit (5 MiB)',
      },
    ],
  };
  const unscoredRun: RunInput = {
    run: 1,
    status: 'completed',
    durationMs: 12_000,
    transcript: tx(3, usage(9_000, 300)),
    score: unscored('agent judge failed: rate limited (429)'),
    files: { detail: detail('docs/search', 'gemini') },
  };
  const failReason = `Cannot start "qwen": command not found (ENOENT) ${PAYLOADS[2]}`;
  const failedRun: RunInput = {
    run: 1,
    status: 'failed',
    reason: failReason,
    durationMs: 900,
    transcript: { events: [], startedAt: 1_760_000_000_000, usage: usage(0, 0), exitCode: 1 },
    score: failedScore(failReason),
    teardownError: 'teardown[0]: exit code 3',
    files: { detail: detail('deploy', 'qwen') },
  };
  const summaryOf = (r: RunInput) => ({
    run: r.run,
    status: r.status,
    ...(r.reason ? { reason: r.reason } : {}),
    durationMs: r.durationMs,
    exitCode: r.transcript?.exitCode ?? null,
    tokenUsage: r.transcript?.usage,
    axisScore: r.score?.axisScore,
    files: r.files,
  });
  const manifest: ManifestInput = {
    reportId: '2026-06-12-205816',
    name: 'Demo suite',
    timestamp: '2026-06-12T20:56:38.000Z',
    durationMs: 223_000,
    incomplete: true,
    incompleteReason: 'Run cancelled by SIGINT',
    summary: { total: 4, completed: 3, failed: 1, runsTotal: 6, runsFailed: 1 },
    results: [
      {
        scenarioKey: 'cms/create-post',
        scenarioName: 'Create a blog post',
        agentName: 'claude-code',
        representativeRun: 1,
        score: repeated[0]!.score,
        spread: { median: 86, min: 72, max: 91, sigma: 9.8, reliability: 1 },
        runs: repeated.map(summaryOf),
      },
      {
        scenarioKey: 'hello-world',
        scenarioName: `Hello ${PAYLOADS[1]}`,
        agentName: 'codex',
        representativeRun: 1,
        score: nasty.score,
        runs: [summaryOf(nasty)],
      },
      {
        scenarioKey: 'docs/search',
        scenarioName: 'Search the docs',
        agentName: 'gemini',
        representativeRun: 1,
        score: unscoredRun.score,
        runs: [summaryOf(unscoredRun)],
      },
      {
        scenarioKey: 'deploy',
        scenarioName: 'Deploy the site',
        agentName: `qwen ${PAYLOADS[0]}`,
        representativeRun: 1,
        status: 'failed',
        reason: failReason,
        score: failedRun.score,
        runs: [summaryOf(failedRun)],
      },
    ],
  };
  return { manifest, details: [repeated, [nasty], [unscoredRun], [failedRun]] };
}
