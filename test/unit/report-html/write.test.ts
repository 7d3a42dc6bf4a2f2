import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HtmlReportData } from '../../../src/report/html/model.js';
import { decodeReportData } from '../../../src/report/html/render.js';
import { writeReportHtml } from '../../../src/report/html/write.js';
import { AxisError } from '../../../src/util/errors.js';
import { fixture, pngBytes, TEXT_ARTIFACT } from './fixture.js';

/** A report directory laid out the way the report store writes it. */
function writeReportDir(dir: string): void {
  const { manifest, details } = fixture();
  const put = (rel: string, data: string | Uint8Array) => {
    const path = join(dir, ...rel.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  };
  put('report.json', JSON.stringify(manifest));
  details.forEach((runs, i) =>
    runs.forEach((run) => {
      if (i === 2) return; // this run's detail file is missing
      const artifactsDir = 'scenarios/hello-world/codex/artifacts';
      const artifacts = (run.artifacts ?? []).map(({ content, ...a }) => {
        if (content)
          put(
            `${artifactsDir}/${a.path}`,
            typeof content === 'string' ? Buffer.from(content, 'base64') : content,
          );
        return a;
      });
      if (run.artifacts)
        artifacts.push({ path: '../../../../report.json', size: 10, mimeType: 'application/json' });
      put(
        run.files!.detail!,
        JSON.stringify({
          reportId: manifest.reportId,
          ...run,
          artifacts,
          files: { ...run.files, artifactsDir },
        }),
      );
    }),
  );
}

describe('writeReportHtml', () => {
  let dir: string;
  let data: HtmlReportData;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'axis-html-write-'));
    writeReportDir(dir);
    const path = await writeReportHtml(dir);
    expect(path).toBe(join(dir, 'report.html'));
    const html = readFileSync(path, 'utf8');
    data = decodeReportData(/type="application\/octet-stream"[^>]*>([A-Za-z0-9+/=]+)</.exec(html)![1]!);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every run of every pair from its detail file', () => {
    expect(data.pairs.map((p) => p.runs.length)).toEqual([3, 1, 1, 1]);
    expect(data.pairs[0]!.runs.map((r) => r.events.length)).toEqual([38, 62, 26]);
    expect(data.pairs[0]!.runs[1]!.file).toBe('scenarios/cms/create-post/claude-code.run-2.json');
  });

  it('embeds captured files read from the artifacts folder, never from outside it', () => {
    const files = data.pairs[1]!.runs[0]!.artifacts;
    expect(Buffer.from(files.find((f) => f.path === 'out/result.txt')!.content!, 'base64').toString()).toBe(
      TEXT_ARTIFACT,
    );
    expect(
      Buffer.from(files.find((f) => f.path === 'out/img/chart.png')!.content!, 'base64').equals(
        Buffer.from(pngBytes()),
      ),
    ).toBe(true);
    const escape = files.find((f) => f.path.startsWith('..'))!;
    expect(escape.content).toBeUndefined();
    expect(escape.omitted).toBe('path outside the artifacts folder');
  });

  it('skips reading files over the embedding limits', async () => {
    await writeReportHtml(dir, { maxArtifactBytes: 100 });
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const again = decodeReportData(
      /type="application\/octet-stream"[^>]*>([A-Za-z0-9+/=]+)</.exec(html)![1]!,
    );
    const png = again.pairs[1]!.runs[0]!.artifacts.find((f) => f.path === 'out/img/chart.png')!;
    expect(png.content).toBeUndefined();
    expect(png.omitted).toMatch(/^too large to embed/);
  });

  it('shows the summary of a run whose detail file is missing', () => {
    const run = data.pairs[2]!.runs[0]!;
    expect(run.status).toBe('unscored');
    expect(run.reason).toBe('agent judge failed: rate limited (429)');
    expect(run.warnings[0]).toMatch(/detail file could not be read/);
  });

  it('refuses a directory without a report', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'axis-html-empty-'));
    try {
      await expect(writeReportHtml(empty)).rejects.toThrow(AxisError);
      writeFileSync(join(empty, 'report.json'), '{"nope": 1}');
      await expect(writeReportHtml(empty)).rejects.toThrow(/report\.json: not an AXIS report/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
