/**
 * report.html's trend chart in a real Chromium: the page is written the way `axis run` writes it
 * (renderReportHtmlFrom over a reports folder with earlier reports), and the chart, its legend and its
 * table show the numbers `axis history` computes, at 1400 and 760 px.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { buildHistory } from '../../../src/report/history.js';
import { readStoredHistory } from '../../../src/report/history-read.js';
import { renderReportHtmlFrom } from '../../../src/report/html/write.js';
import { fixture } from '../../unit/report-html/fixture.js';
import { EARLIER, UNRELATED, writeTrendStore } from '../../unit/report-html/trend-store.js';

const SHOTS = join(process.cwd(), 'test-results', 'report-html');

describe('report.html trend chart in Chromium', () => {
  let root: string;
  let url: string;
  const pages = chromiumPages();
  const open = (width: number) => pages.open(url, width, 'section.trend svg.trend-svg');

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    root = mkdtempSync(join(tmpdir(), 'axis-html-trend-'));
    const { manifest, details } = fixture();
    manifest.summary = { ...manifest.summary, averageAxisScore: 89 };
    const dir = writeTrendStore(root, manifest);
    const file = join(dir, 'report.html');
    writeFileSync(file, await renderReportHtmlFrom(dir, { manifest, details }));
    url = pathToFileURL(file).href;
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('draws the same numbers axis history prints, with a title, a description and a table', async () => {
    const history = buildHistory((await readStoredHistory(root, { limit: 20 })).manifests);
    // The unrelated report is in axis history (the whole store) but not in this report's chart.
    expect(history.points.map((p) => p.reportId)).toContain(UNRELATED);
    const expected = history.points.filter((p) => p.reportId !== UNRELATED).map((p) => p.axisScore);
    expect(expected).toEqual([...EARLIER.map((e) => e.average), 89]);

    const p = await open(1400);
    await p.locator('section.trend').screenshot({ path: join(SHOTS, 'trend-1400.png') });
    const svg = p.locator('section.trend svg.trend-svg');
    await expect(svg.getAttribute('role')).resolves.toBe('img');
    await expect(svg.locator('title').first().textContent()).resolves.toBe(
      'AXIS Result over 6 reports, 0 to 100',
    );
    const desc = await svg.locator('desc').textContent();
    expect(desc).toContain('Average AXIS Result of each report: 61, 70, no score, 79, 84, 89');
    // The average line breaks at the unscored report: two segments, one point per scored report.
    const avg = svg.locator('g.trend-line.tl-avg');
    await expect(avg.locator('polyline').count()).resolves.toBe(2);
    await expect(avg.locator('circle').count()).resolves.toBe(5);
    await expect(avg.locator('circle').last().locator('title').textContent()).resolves.toBe(
      'Average AXIS Result of each report in report 2026-06-12-205816: 89',
    );
    // Higher scores sit higher: the line rises from 61 to 89.
    const ys = await avg.locator('circle').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cy'))));
    expect(ys[0]!).toBeGreaterThan(ys[ys.length - 1]!);
    // Four pair lines (every pair of this report; fewer than the five drawn at first).
    await expect(svg.locator('g.trend-line').count()).resolves.toBe(5);
    await expect(p.locator('section.trend .trend-note').innerText()).resolves.toContain(
      '6 stored reports with the scenarios of this one, oldest first',
    );
    await expect(p.locator('section.trend .trend-note').innerText()).resolves.toContain(
      'newest 20 stored reports at most',
    );

    // The values as text: one row per report, the last is this one.
    await p.locator('section.trend details.trend-values > summary').click();
    const rows = await p
      .locator('.trend-values-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.children, (c) => (c as HTMLElement).innerText.trim())),
      );
    expect(rows.map((r) => r[0])).toEqual([...EARLIER.map((e) => e.id), '2026-06-12-205816 (this report)']);
    expect(rows.map((r) => r[1])).toEqual(['61', '70', '—', '79', '84', '89']);
    // cms/create-post · claude-code, then hello-world · codex (the hostile name is text, not markup).
    expect(rows.map((r) => r[2])).toEqual(['58', '66', '—', '74', '80', '86']);
    expect(rows.map((r) => r[3])).toEqual(['64', '—', '—', '85', '88', '93']);
    const heads = await p.locator('.trend-values-table thead th').allInnerTexts();
    expect(heads[3]).toContain('Hello <img src=x');
    await expect(p.evaluate(() => (window as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
  });

  it('the legend adds and removes lines, and the table follows', async () => {
    const p = await open(1400);
    const legend = p.getByRole('group', { name: 'Lines in the chart' });
    await legend.getByRole('checkbox', { name: /Create a blog post · claude-code/ }).uncheck();
    await expect(p.locator('svg.trend-svg g.trend-line').count()).resolves.toBe(4);
    await expect(p.locator('svg.trend-svg desc').textContent()).resolves.not.toContain('Create a blog post');
    await expect(p.locator('.trend-values-table thead th').count()).resolves.toBe(5); // Report + 4 lines
    await legend.getByRole('checkbox', { name: /Create a blog post · claude-code/ }).check();
    await expect(p.locator('svg.trend-svg g.trend-line').count()).resolves.toBe(5);
  });

  it('at 760 px the chart fits its box and its labels do not overlap', async () => {
    const p = await open(760);
    await p.locator('section.trend').screenshot({ path: join(SHOTS, 'trend-760.png') });
    const layout = await p.evaluate(() => {
      const box = document.querySelector('.trend-chart')!.getBoundingClientRect();
      const svgBox = document.querySelector('svg.trend-svg')!.getBoundingClientRect();
      const labels = Array.from(document.querySelectorAll('svg.trend-svg text.trend-x'), (t) =>
        t.getBoundingClientRect(),
      );
      const overlaps = labels.slice(1).filter((r, i) => r.left < labels[i]!.right).length;
      const doc = document.documentElement;
      return {
        inside: svgBox.left >= box.left - 0.5 && svgBox.right <= box.right + 0.5,
        labels: labels.length,
        overlaps,
        overflow: doc.scrollWidth - doc.clientWidth,
      };
    });
    expect(layout.inside).toBe(true);
    expect(layout.labels).toBeGreaterThanOrEqual(2);
    expect(layout.overlaps).toBe(0);
    expect(layout.overflow).toBeLessThanOrEqual(0);
  });
});
