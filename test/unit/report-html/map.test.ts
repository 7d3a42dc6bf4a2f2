import { describe, expect, it } from 'vitest';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import type { ManifestInput } from '../../../src/report/html/map.js';
import { fixture, pngBytes, score, transcript } from './fixture.js';

describe('toHtmlReportData', () => {
  const { manifest, details } = fixture();
  const data = toHtmlReportData(manifest, details);

  it('maps the header and keeps the manifest summary', () => {
    expect(data.schema).toBe(1);
    expect(data.report).toEqual({
      id: '2026-06-12-205816',
      name: 'Demo suite',
      timestamp: '2026-06-12T20:56:38.000Z',
      durationMs: 223_000,
      incomplete: true,
      incompleteReason: 'Run cancelled by SIGINT',
    });
    expect(data.summary.pairs).toEqual({ total: 4, completed: 3, failed: 1, cancelled: 0 });
    expect(data.summary.runs).toEqual({ total: 6, failed: 1, cancelled: 0 });
    expect(data.summary.averageAxisScore).toBe(89); // mean of 86 and 93 (89.5), floored
    expect(data.summary.totalCostUsd).toBeCloseTo(0.4123 + 0.52 + 0.39 + 0.05, 10);
    // Two of the six runs reported no cost: the card's total is a lower bound and says so.
    expect(data.summary.cost).toEqual({ value: '≥ $1.3723', note: '2 of 6 runs without a cost' });
  });

  it('keeps every run of a repeated pair and marks the representative one', () => {
    const pair = data.pairs[0]!;
    expect(pair.runs.map((r) => r.index)).toEqual([1, 2, 3]);
    expect(pair.representative).toBe(0);
    expect(pair.spread).toEqual({ scored: 3, median: 86, min: 72, max: 91, sigma: 9.8 });
    expect(pair.reliability).toBe(1);
    expect(pair.runs.map((r) => r.scores?.axis)).toEqual([86, 72, 91]);
    // Each run carries its own interactions and transcript.
    expect(pair.runs.map((r) => r.events.length)).toEqual([38, 62, 26]);
  });

  it('reliability comes from the shared rule: unscored and cancelled runs leave the denominator', () => {
    const m: ManifestInput = {
      ...manifest,
      results: [
        {
          scenarioKey: 'a',
          agentName: 'b',
          representativeRun: 1,
          runs: [
            { run: 1, status: 'completed', scoreStatus: 'scored', axisScore: 80 },
            { run: 2, status: 'failed', scoreStatus: 'failed', axisScore: 0, reason: 'crashed' },
            { run: 3, status: 'completed', scoreStatus: 'unscored', axisScore: null },
            { run: 4, status: 'cancelled', reason: 'Run cancelled by SIGINT' },
            { run: 5, status: 'completed', scoreStatus: 'scored', axisScore: 90 },
          ],
        },
      ],
    };
    const pair = toHtmlReportData(m).pairs[0]!;
    expect(pair.reliability).toBe(0.667);
    expect(pair.reliabilityText).toBe(
      'reliability 66% (2/3 runs completed; 1 unscored, 1 cancelled not counted)',
    );
    expect(pair.runs.map((r) => r.status)).toEqual(['scored', 'failed', 'unscored', 'cancelled', 'scored']);
  });

  it('carries a failed afterAll into the header, as axis reports shows it', () => {
    // The run exits 1 for it; a page silent about it would look like a clean run.
    const error = 'afterAll failed:\nafterAll[0]: Lifecycle action failed: "./stop.sh" exited with code 3';
    const m: ManifestInput = { ...manifest, hooks: { afterAll: { ok: false, error } } };
    expect(toHtmlReportData(m).report.afterAllError).toBe(error);
    const ok: ManifestInput = { ...manifest, hooks: { afterAll: { ok: true } } };
    expect(toHtmlReportData(ok).report).not.toHaveProperty('afterAllError');
  });

  it('picks the representative by run number', () => {
    const m: ManifestInput = { ...manifest, results: [{ ...manifest.results[0]!, representativeRun: 3 }] };
    expect(toHtmlReportData(m, [details[0]!]).pairs[0]!.representative).toBe(2);
  });

  it('never invents a number for unscored or failed runs', () => {
    const unscored = data.pairs[2]!.runs[0]!;
    expect(unscored.status).toBe('unscored');
    expect(unscored.reason).toBe('agent judge failed: rate limited (429)');
    expect(unscored.scores?.axis).toBeNull();
    expect(unscored.scores?.agent).toMatchObject({ score: null, reason: 'agent judge failed' });

    const failed = data.pairs[3]!.runs[0]!;
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/^Cannot start "qwen": command not found/);
    expect(failed.scores).toBeNull(); // the failed score's axisScore 0 is not shown
    expect(failed.dimensions).toEqual([]);
    expect(failed.insights).toEqual([]);
    expect(failed.exitCode).toBe(1);
    expect(failed.warnings).toEqual(['Teardown failed: teardown[0]: exit code 3']);

    const one = (r: ManifestInput['results'][number]) =>
      toHtmlReportData({ ...manifest, results: [r] }).pairs[0]!.runs[0]!;
    expect(one({ scenarioKey: 'a', agentName: 'b' })).toMatchObject({
      status: 'unscored',
      reason: 'not scored (--no-score)',
      scores: null,
    });
    expect(
      one({ scenarioKey: 'a', agentName: 'b', status: 'timeout', reason: 'Agent timed out after 5 min' }),
    ).toMatchObject({
      status: 'failed',
      reason: 'Agent timed out after 5 min',
      scores: null,
    });
  });

  it('says when a scored run did not end cleanly, and who judged it', () => {
    const r = data.pairs[1]!.runs[0]!;
    expect(r.judge).toBe('anthropic claude-sonnet-4-5');
    const timedOut = toHtmlReportData(manifest, [
      [{ ...details[1]![0]!, status: 'timeout', reason: 'time limit' }],
    ]).pairs[0]!.runs[0]!;
    expect(timedOut.status).toBe('scored');
    expect(timedOut.warnings).toEqual(['The run ended with status timeout: time limit']);
  });

  it("falls back to report.json's run summaries without detail files", () => {
    const pair = toHtmlReportData(manifest, []).pairs[0]!;
    expect(pair.runs.map((r) => [r.index, r.status, r.scores?.axis])).toEqual([
      [1, 'scored', 86],
      [2, 'unscored', undefined],
      [3, 'unscored', undefined],
    ]);
    expect(pair.runs[0]!.events).toEqual([]);
    expect(pair.runs[1]!.warnings[0]).toMatch(/detail file could not be read/);
    const withStatus = {
      ...manifest.results[0]!,
      runs: manifest.results[0]!.runs!.map((r) => ({ ...r, scoreStatus: 'scored' as const })),
    };
    const known = toHtmlReportData({ ...manifest, results: [withStatus] }).pairs[0]!.runs[1]!;
    expect(known).toMatchObject({
      status: 'scored',
      scores: { axis: 72, goal: { unknown: true, score: null } },
    });
  });

  it('marks not-applicable dimensions', () => {
    const run = data.pairs[1]!.runs[0]!;
    expect(run.scores?.service).toEqual({ score: null, notApplicable: true, weight: 0 });
    expect(run.dimensions.find((d) => d.id === 'service')).toMatchObject({ notApplicable: true, audits: [] });
  });

  it('builds interactions from the transcript when the detail has none', () => {
    const run = data.pairs[0]!.runs[2]!;
    expect(run.interactions).toHaveLength(17);
    expect(run.interactions[1]).toMatchObject({
      id: 2,
      type: 'tool',
      categories: ['environment'],
      label: 'Bash(command: ls -la dir0)',
      startMs: 2_700,
      durationMs: 300,
      outcome: 'ok',
      events: [2, 3],
    });
    expect(run.interactions.find((ix) => ix.outcome === 'error')?.failure).toBeTruthy();
    expect(run.events[2]).toEqual({
      kind: 'tool_call',
      t: 2_700,
      name: 'Bash',
      callId: 'call_0',
      input: '{"command":"ls -la dir0"}',
    });
  });

  it('names the weakest signals of low-scoring dimensions', () => {
    const run = data.pairs[0]!.runs[1]!; // goal 60, env 71, agent 66
    expect(run.insights.map((i) => [i.dimension, i.score])).toEqual([
      ['goal', 60],
      ['agent', 66],
      ['environment', 71],
    ]);
    expect(run.insights[0]!.signals[0]).toMatch(/^"Title matches .*" scored 4 out of 10: Title differs/);
    const agent = run.insights[1]!.signals;
    // Plain sentences: no sub-dimension ids, every value on the 0–100 scale, plurals right.
    expect(agent[0]).toBe('Weakest part: "needed" at 55/100 (were the interactions needed at all?)');
    expect(agent[1]).toBe('2 interactions were not needed: #3, #5');
    expect(agent[2]).toMatch(
      /^Interaction #2 Bash\(command: ls -la dir0\) scored 0\/100 for "worked": exit code 2/,
    );
    for (const ins of run.insights)
      for (const sig of ins.signals) expect(sig).not.toMatch(/sub-dimension|\b0\.\d+\b|receipt|bucket/);
    expect(data.pairs[0]!.runs[2]!.insights).toEqual([]);
  });

  it('embeds artifacts as base64 and says why others are left out', () => {
    const files = data.pairs[1]!.runs[0]!.artifacts;
    expect(files.map((f) => f.path)).toEqual([
      'out/result.txt',
      'out/img/chart.png',
      'data.json',
      'big/dump.bin',
    ]);
    expect(Buffer.from(files[1]!.content!, 'base64').equals(Buffer.from(pngBytes()))).toBe(true);
    expect(files[2]!.content).toBe(Buffer.from('{"ok": true}\n').toString('base64'));
    expect(files[3]).toEqual({
      path: 'big/dump.bin',
      size: 9_000_000,
      mimeType: 'application/octet-stream',
      skipped: 'larger than the per-file limit (5 MiB)',
    });

    const capped = toHtmlReportData(manifest, details, { maxArtifactBytes: 100, maxTotalArtifactBytes: 70 });
    const c = capped.pairs[1]!.runs[0]!.artifacts;
    expect(c[0]!.content).toBeDefined(); // 62 bytes fit
    expect(c[1]!.omitted).toMatch(/^too large to embed/);
    expect(c[2]!.omitted).toMatch(/^report embedding limit reached/);
  });

  it('shortens text over the per-text cap, keeping head and tail', () => {
    const text = `${'a'.repeat(300)}${'z'.repeat(200)}`;
    const long = {
      ...manifest,
      results: [
        { scenarioKey: 's', agentName: 'a', transcript: { events: [{ kind: 'text' as const, text }] } },
      ],
    };
    const ev = toHtmlReportData(long, [], { maxTextChars: 100 }).pairs[0]!.runs[0]!.events[0]!;
    expect(ev.truncated).toBe(400);
    expect(ev.text).toBe(
      `${'a'.repeat(70)}\n… [400 characters not shown: the full text is in the run's detail JSON] …\n${'z'.repeat(30)}`,
    );
  });

  it('masks secrets in transcripts and notes', () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const m: ManifestInput = {
      ...manifest,
      results: [
        {
          scenarioKey: 's',
          agentName: 'a',
          score: score(90, { goal: 90, env: 90, svc: 90, agent: 90 }),
          transcript: {
            events: [
              { kind: 'tool_result', callId: 'c', output: `Authorization: Bearer ${key}`, isError: false },
            ],
          },
          setupNotes: `token=${key}`,
        },
      ],
    };
    const json = JSON.stringify(toHtmlReportData(m));
    expect(json).not.toContain(key);
    expect(json).toContain('[redacted]');
  });

  it('masks credential shapes in the texts a run shows besides its transcript', () => {
    // Reasons, warnings and judge rationales quote agent output and errors as they came.
    const key = 'sk-ant-api03-qrstuvwxyzabcdefgh';
    const base = score(50, { goal: 50, env: 50, svc: 50, agent: 50 });
    const withKey = (text: string) => `${text}: Authorization: Bearer ${key}`;
    const m: ManifestInput = {
      ...manifest,
      results: [
        {
          scenarioKey: 's',
          agentName: 'failed',
          status: 'failed',
          reason: withKey('agent exited 1'),
          teardownError: withKey('teardown'),
          afterAgentError: withKey('checks'),
        },
        {
          scenarioKey: 's',
          agentName: 'unscored',
          status: 'completed',
          score: { ...base, status: 'unscored', reason: withKey('judge failed') },
        },
        {
          scenarioKey: 's',
          agentName: 'scored',
          status: 'completed',
          score: {
            ...base,
            goalAchievement: {
              ...base.goalAchievement,
              criteria: base.goalAchievement.criteria.map((c) => ({ ...c, rationale: withKey('saw') })),
            },
            judge: { label: 'j', warning: withKey('judge warning') },
          },
        },
      ],
    };
    const json = JSON.stringify(toHtmlReportData(m));
    expect(json).not.toContain(key);
    expect(json.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(7);
  });

  it('computes the summary when the manifest has none', () => {
    const m: ManifestInput = { reportId: 'r', timestamp: 't', results: manifest.results.slice(2) };
    const s = toHtmlReportData(m, details.slice(2)).summary;
    expect(s).toEqual({
      averageAxisScore: null,
      pairs: { total: 2, completed: 1, failed: 1, cancelled: 0 },
      runs: { total: 2, failed: 1, cancelled: 0 },
      totalCostUsd: null,
      cost: { value: '—', note: 'no run reported a cost' },
      totalTokens: 9_300,
    });
  });

  it('measures event times from the first timestamp without a start time', () => {
    const t = transcript(1);
    const m = {
      ...manifest,
      results: [{ scenarioKey: 's', agentName: 'a', transcript: { events: t.events } }],
    };
    const run = toHtmlReportData(m).pairs[0]!.runs[0]!;
    expect(run.events[0]!.t).toBe(0);
    expect(run.interactions[0]!.startMs).toBe(1_500);
  });
});
