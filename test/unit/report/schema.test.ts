import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportJsonSchemas, reportManifestSchema, runDetailSchema } from '../../../src/report/schema.js';
import { expectValidReport } from '../../helpers/report-schema.js';
import { mixedPairs, removeProjects, scoredRun, tempProject, writeReport } from './fixture.js';

afterAll(removeProjects);

const root = join(import.meta.dirname, '../../..');

describe('report JSON Schemas', () => {
  it('schema/report*.schema.json equal freshly generated ones (run `npm run build` to refresh)', () => {
    const fresh = reportJsonSchemas();
    expect(readFileSync(join(root, 'schema/report.schema.json'), 'utf8')).toBe(
      `${JSON.stringify(fresh.report, null, 2)}\n`,
    );
    expect(readFileSync(join(root, 'schema/report-run.schema.json'), 'utf8')).toBe(
      `${JSON.stringify(fresh.run, null, 2)}\n`,
    );
  });

  it('the published schemas are strict: unknown keys are refused at every level', () => {
    const report = reportJsonSchemas().report as { additionalProperties?: unknown; $schema?: string };
    expect(report.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(report.additionalProperties).toBe(false);
  });

  it('accepts what the store writes: scored, unscored, crashed and repeated pairs', async () => {
    const project = tempProject();
    const m = await writeReport(project, new Date('2026-03-01T10:00:00Z'), [
      ...mixedPairs(),
      {
        key: 'multi@v2',
        agent: 'gemini',
        runs: [{ score: scoredRun(80) }, { score: scoredRun(70) }, { status: 'timeout' }],
      },
    ]);
    const dir = join(project, '.axis/reports', m.reportId);
    const parsed = expectValidReport(dir);
    expect(parsed.results).toHaveLength(4);
    expect(parsed.results[3]!.spread).toMatchObject({ runs: 3, scored: 2 });
  });

  it('names the field when a file drifts from the schema', async () => {
    const project = tempProject();
    const m = await writeReport(project, new Date('2026-03-01T11:00:00Z'), mixedPairs());
    const path = join(project, '.axis/reports', m.reportId, 'report.json');
    const json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & {
      results: Record<string, unknown>[];
    };

    const extra = reportManifestSchema.safeParse({ ...json, surprise: 1 });
    expect(extra.success).toBe(false);
    expect(JSON.stringify(extra.error?.issues)).toContain('surprise');

    json.results[0]!.durationMs = 'slow';
    const bad = reportManifestSchema.safeParse(json);
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['results.0.durationMs']);

    writeFileSync(path, JSON.stringify(json));
    expect(() => expectValidReport(join(project, '.axis/reports', m.reportId))).toThrow(
      /results\.0\.durationMs/,
    );
  });

  it('checks per-run detail files too (transcript events, criteria, score)', async () => {
    const project = tempProject();
    const m = await writeReport(project, new Date('2026-03-01T12:00:00Z'), mixedPairs());
    const rel = m.results[0]!.runs[0]!.files!.detail;
    const detail = JSON.parse(readFileSync(join(project, '.axis/reports', m.reportId, rel!), 'utf8')) as {
      transcript: { events: Record<string, unknown>[] };
    };
    expect(runDetailSchema.safeParse(detail).success).toBe(true);
    detail.transcript.events.push({ kind: 'tool_result', callId: 'c9', output: 'x' });
    const bad = runDetailSchema.safeParse(detail);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path.join('.')).toMatch(/^transcript\.events\.4/);
  });
});
