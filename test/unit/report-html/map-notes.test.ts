/**
 * Notes are rendered by a renderer the caller passes, so the report writer loads marked only for a
 * report that has notes: `hasNotes` says when, and the mapper refuses notes it was given no renderer for.
 */
import { describe, expect, it } from 'vitest';
import { toHtmlReportData as publicMap } from '../../../src/report/html/index.js';
import { hasNotes, toHtmlReportData, type ManifestInput } from '../../../src/report/html/map.js';
import { score } from './fixture.js';

const base: ManifestInput = {
  reportId: '2026-12-07-000000',
  timestamp: '2026-12-07T00:00:00.000Z',
  results: [
    { scenarioKey: 's', agentName: 'a', score: score(90, { goal: 90, env: 90, svc: 90, agent: 90 }) },
  ],
};
const withRunNotes = (notes: string): ManifestInput => ({
  ...base,
  results: [{ ...base.results[0]!, setupNotes: notes }],
});

describe('hasNotes', () => {
  it('is false without notes, or with notes that are only whitespace', () => {
    expect(hasNotes(base)).toBe(false);
    expect(hasNotes(withRunNotes(' \n\t'))).toBe(false);
    expect(hasNotes({ ...base, hooks: { beforeAll: { ok: true, notes: '  ' } } })).toBe(false);
  });

  it('finds notes of a run hook, of a run in the detail files, and of a run summary', () => {
    expect(hasNotes({ ...base, hooks: { afterAll: { ok: true, notes: 'done' } } })).toBe(true);
    expect(hasNotes(base, [[{ status: 'completed', teardownNotes: '## cleaned' }]])).toBe(true);
    expect(hasNotes(withRunNotes('seeded'))).toBe(true);
    // The detail files, when given, are the runs the page shows: the entry's own notes are not.
    expect(hasNotes(withRunNotes('seeded'), [[{ status: 'completed' }]])).toBe(false);
  });
});

describe('notes and their renderer', () => {
  it('a report with notes needs a renderer; one without maps without any', () => {
    expect(() => toHtmlReportData(withRunNotes('seeded'))).toThrow('no notes renderer was given');
    expect(toHtmlReportData(base).pairs[0]!.runs[0]!.notes).toEqual({});
  });

  it('renders each note, secrets masked first, with the renderer given', () => {
    const key = 'sk-ant-api03-abcdefghijklmnop';
    const seen: string[] = [];
    const render = (md: string) => {
      seen.push(md);
      return `<p>${md.length}</p>`;
    };
    const m = { ...withRunNotes(`token=${key}`), hooks: { beforeAll: { ok: true, notes: 'up' } } };
    const data = toHtmlReportData(m, [], {}, undefined, render);
    expect(seen).toEqual(['token=[redacted]', 'up']);
    expect(data.report.notes).toEqual({ beforeAllHtml: '<p>2</p>' });
    expect(data.pairs[0]!.runs[0]!.notes).toEqual({ setupHtml: '<p>16</p>' });
  });

  it('the public toHtmlReportData renders notes as sanitized markdown', () => {
    const notes = publicMap(withRunNotes('## Seeded\n\n<script>x()</script>')).pairs[0]!.runs[0]!.notes;
    expect(notes.setupHtml).toContain('<h2>Seeded</h2>');
    expect(notes.setupHtml).not.toContain('<script');
  });
});
