import { describe, expect, it } from 'vitest';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import type { ManifestInput, RunInput } from '../../../src/report/html/map.js';
import {
  classifyInteractions,
  groupTranscript,
  KEEP_MIN_INTERACTIONS,
  keepInteractions,
  takeInteractions,
} from '../../../src/scoring/index.js';
import type { ClassifyContext } from '../../../src/scoring/classify.js';
import { interactionRecords } from '../../../src/scoring/pipeline.js';
import type { ScoreResult } from '../../../src/scoring/types.js';
import { score, transcript } from './fixture.js';

// What the scoring stage does: classify with the run's config (here a rule and an MCP server the page
// cannot know), keep the interactions, and store their records in the score.
const context: ClassifyContext = { adapter: 'claude-code', mcpServers: ['cms'], rules: { Read: 'service' } };

function scored(tools: number) {
  const t = { ...transcript(tools, true), endedAt: 1_800_000_000_000 };
  const interactions = classifyInteractions(groupTranscript(t), context);
  keepInteractions(t, interactions);
  const s: ScoreResult = {
    ...score(80, { goal: 80, env: 80, svc: 80, agent: 80 }),
    interactions: interactionRecords(interactions),
  };
  const run: RunInput = { run: 1, status: 'completed', score: s, transcript: t };
  const manifest: ManifestInput = {
    reportId: '2026-12-01-160000',
    timestamp: '2026-12-01T16:00:00.000Z',
    results: [{ scenarioKey: 'big', agentName: 'claude-code', representativeRun: 1, runs: [run] }],
  };
  return { t, interactions, run, manifest };
}

describe('interactions kept from scoring for report.html', () => {
  it('gives the page exactly the data it computes itself', () => {
    const { interactions, run, manifest } = scored(400);
    expect(interactions.length).toBeGreaterThanOrEqual(KEEP_MIN_INTERACTIONS);
    // The rule moved Read into service: the recomputed page only gets that from the stored records.
    expect(interactions.some((ix) => ix.classifiedBy.startsWith('config'))).toBe(true);
    const reused = toHtmlReportData(manifest, [[run]]);
    // Taken once: the second page recomputes them from the transcript.
    expect(takeInteractions(run.transcript!)).toBeUndefined();
    const recomputed = toHtmlReportData(manifest, [[run]]);
    expect(JSON.stringify(reused)).toBe(JSON.stringify(recomputed));
    expect(reused.pairs[0]!.runs[0]!.interactions).toHaveLength(interactions.length);
  });

  it('hands them out only for the same events array, length and times', () => {
    const a = scored(400);
    expect(takeInteractions({ ...a.t, events: [...a.t.events] })).toBeUndefined();
    expect(takeInteractions({ ...a.t, endedAt: a.t.endedAt + 1 })).toBeUndefined();
    const b = scored(400);
    b.t.events.push({ kind: 'text', text: 'later' });
    expect(takeInteractions(b.t)).toBeUndefined();
    const c = scored(400);
    expect(takeInteractions({ events: c.t.events, startedAt: c.t.startedAt, endedAt: c.t.endedAt })).toBe(
      c.interactions,
    );
  });

  it('keeps nothing for a short run', () => {
    const { t, interactions } = scored(10);
    expect(interactions.length).toBeLessThan(KEEP_MIN_INTERACTIONS);
    expect(takeInteractions(t)).toBeUndefined();
  });
});
