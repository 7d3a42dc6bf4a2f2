/**
 * report.html's results table in a real Chromium: sorting, filtering, deep links (`#pair=…&run=…`) in
 * both directions, hostile hashes, and the 760 px layout (no page overflow, no name broken mid-word).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.js';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import { renderReportHtml } from '../../../src/report/html/render.js';
import { fixture } from '../../unit/report-html/fixture.js';

const SHOTS = join(process.cwd(), 'test-results', 'report-html');
const LONG_KEY = 'integrations/payments-webhook-signature-verification';
const LONG_AGENT = 'claude-code-with-playwright-mcp';

describe('report.html results table in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let url: string;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'axis-html-table-'));
    const { manifest, details } = fixture();
    // Long names, to prove they wrap at word boundaries at 760 px.
    const third = manifest.results[2]!;
    third.scenarioKey = LONG_KEY;
    third.scenarioName = 'Verify payment webhook signatures end-to-end';
    third.agentName = LONG_AGENT;
    const file = join(dir, 'report.html');
    writeFileSync(file, renderReportHtml(toHtmlReportData(manifest, details)));
    url = pathToFileURL(file).href;
    browser = await launchChromium();
  }, 60_000);

  afterEach(async () => {
    await page?.close();
    expect(pageErrors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(hash = '', width = 1400): Promise<Page> {
    page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(url + hash);
    await page.locator('table.results').waitFor();
    return page;
  }
  const order = (p: Page) =>
    p.locator('tr.pair-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-pair'))));
  const visible = (p: Page) =>
    p
      .locator('tr.pair-row')
      .evaluateAll((rows) =>
        rows.filter((r) => !(r as HTMLElement).hidden).map((r) => Number(r.getAttribute('data-pair'))),
      );
  /** Every visible header label has at least 6 px between it and the next one, on one line. */
  async function headerGaps(p: Page, selector: string, what: string): Promise<void> {
    const boxes = await p.locator(selector).evaluateAll((ths) =>
      ths
        .filter((th) => (th as HTMLElement).offsetParent !== null)
        .map((th) => {
          // The label text itself, not the cell: a cell's padding is what keeps labels apart.
          let left = Infinity;
          let right = -Infinity;
          const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.nodeValue?.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            for (const r of Array.from(range.getClientRects())) {
              if (r.width === 0) continue;
              left = Math.min(left, r.left);
              right = Math.max(right, r.right);
            }
          }
          return { text: (th as HTMLElement).innerText.trim(), left, right };
        }),
    );
    expect(boxes.length, what).toBeGreaterThan(3);
    for (let i = 1; i < boxes.length; i++)
      expect(
        boxes[i]!.left - boxes[i - 1]!.right,
        `${what}: "${boxes[i - 1]!.text}" | "${boxes[i]!.text}"`,
      ).toBeGreaterThanOrEqual(6);
  }
  const header = (p: Page, key: string) => p.locator(`table.results th[data-sort="${key}"]`);

  it('sorts by a header click, ascending then descending, with aria-sort', async () => {
    const p = await open();
    expect(await order(p)).toEqual([0, 1, 2, 3]);
    await header(p, 'scenario').locator('button').first().click();
    // Create a blog post, Deploy the site, Hello …, Verify payment …
    expect(await order(p)).toEqual([0, 3, 1, 2]);
    await expect(header(p, 'scenario').getAttribute('aria-sort')).resolves.toBe('ascending');
    await header(p, 'scenario').locator('button').first().click();
    expect(await order(p)).toEqual([2, 1, 3, 0]);
    await expect(header(p, 'scenario').getAttribute('aria-sort')).resolves.toBe('descending');

    // AXIS Result 86 and 93; the unscored and failed pairs have none and stay last both ways.
    await header(p, 'axis').locator('button').first().click();
    expect(await order(p)).toEqual([0, 1, 2, 3]);
    await header(p, 'axis').locator('button').first().click();
    expect(await order(p)).toEqual([1, 0, 2, 3]);
    await expect(header(p, 'axis').getAttribute('aria-sort')).resolves.toBe('descending');
    await expect(header(p, 'scenario').getAttribute('aria-sort')).resolves.toBe('none');

    // Status ascending puts the worst first: failed, unscored, scored.
    await header(p, 'status').locator('button').first().click();
    expect(await order(p)).toEqual([3, 2, 0, 1]);
    // Every column sorts; an open pair's detail row moves with its row.
    await p.locator('tr.pair-row[data-pair="0"] button.disclose').click();
    for (const key of [
      'agent',
      'goal',
      'environment',
      'service',
      'agentScore',
      'duration',
      'tokens',
      'cost',
    ]) {
      await header(p, key).locator('button').first().click();
      await expect(header(p, key).getAttribute('aria-sort')).resolves.toBe('ascending');
      const next = await p
        .locator('tr.pair-row[data-pair="0"]')
        .evaluate((r) => r.nextElementSibling?.id ?? null);
      expect(next, key).toBe('pair-0');
    }
    await header(p, 'agent').locator('button').first().click();
    // claude-code, claude-code-with-…, codex, qwen …; descending reverses.
    expect(await order(p)).toEqual([0, 2, 1, 3]);
    await header(p, 'agent').locator('button').first().click();
    expect(await order(p)).toEqual([3, 1, 2, 0]);
  });

  it('filters rows by text over scenario and agent, and by status', async () => {
    const p = await open();
    const text = p.getByRole('searchbox', { name: 'Filter by scenario or agent' });
    await text.fill('payments-webhook');
    expect(await visible(p)).toEqual([2]);
    await expect(p.locator('.filters').innerText()).resolves.toContain('1 of 4 pairs');
    await text.fill('CODEX');
    expect(await visible(p)).toEqual([1]);
    await text.fill('');
    expect(await visible(p)).toEqual([0, 1, 2, 3]);
    await expect(p.locator('.filters').innerText()).resolves.toContain('4 pairs');

    const status = p.getByRole('combobox', { name: 'Filter by status' });
    await status.selectOption('failed');
    expect(await visible(p)).toEqual([3]);
    await status.selectOption('scored');
    expect(await visible(p)).toEqual([0, 1]);
    await text.fill('hello');
    expect(await visible(p)).toEqual([1]);
    await text.fill('nothing matches this');
    expect(await visible(p)).toEqual([]);
    await expect(p.locator('tr.empty-row').isVisible()).resolves.toBe(true);
    await status.selectOption('');
    await text.fill('');
    await expect(p.locator('tr.empty-row').isVisible()).resolves.toBe(false);
  });

  it('opens the pair and run a deep link names', async () => {
    const p = await open('#pair=cms/create-post|claude-code&run=2');
    const panel = p.locator('#pair-0');
    await expect(panel.isVisible()).resolves.toBe(true);
    await expect(panel.locator('[data-run-view]').getAttribute('data-run-view')).resolves.toBe('2');
    await expect(panel.locator('tr[data-run="2"] button').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(panel.locator('.overview .big').innerText()).resolves.toBe('72');
    await expect(p.locator('#pair-1').isHidden()).resolves.toBe(true);
    // Encoded form, the long key, no run: the pair opens on its representative run.
    await p.evaluate((k) => {
      location.hash = `pair=${encodeURIComponent(k)}`;
    }, `${LONG_KEY}|${LONG_AGENT}`);
    await expect(p.locator('#pair-2').isVisible()).resolves.toBe(true);
  });

  it('updates the hash when a pair or a run is selected, and clears it when the pair closes', async () => {
    const p = await open();
    const hash = () => p.evaluate(() => location.hash);
    const entries = await p.evaluate(() => history.length);
    await p.locator('tr.pair-row[data-pair="1"] button.disclose').click();
    await expect(hash()).resolves.toBe('#pair=hello-world|codex&run=1');
    await p.locator('tr.pair-row[data-pair="0"] button.disclose').click();
    await expect(hash()).resolves.toBe('#pair=cms/create-post|claude-code&run=1');
    await p.locator('#pair-0 tr[data-run="3"] button').click();
    await expect(hash()).resolves.toBe('#pair=cms/create-post|claude-code&run=3');
    // replaceState: no history entry per click.
    await expect(p.evaluate(() => history.length)).resolves.toBe(entries);
    // Reloading restores run 3.
    await p.reload();
    await expect(p.locator('#pair-0 [data-run-view]').getAttribute('data-run-view')).resolves.toBe('3');
    await p.locator('tr.pair-row[data-pair="0"] button.disclose').click();
    await expect(hash()).resolves.toBe('');
  });

  it('ignores unknown and hostile hashes without running anything', async () => {
    for (const hash of [
      '#pair=%3Cimg%20src%3Dx%20onerror%3D%22window.__pwned%3D1%22%3E|x&run=1',
      '#pair=cms/create-post|nobody&run=2',
      '#run=2',
      '#%E0%A4%A',
      '#pair=',
    ]) {
      const p = await open(hash);
      await expect(p.locator('tr.detail-row:not([hidden])').count(), hash).resolves.toBe(0);
      await expect(p.evaluate(() => (window as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
      await p.close();
    }
    // A known pair with a bad run opens on the representative run.
    const p = await open('#pair=cms/create-post|claude-code&run=99');
    await expect(p.locator('#pair-0 [data-run-view]').getAttribute('data-run-view')).resolves.toBe('1');
  });

  it('at 760 px the page does not overflow and no name breaks inside a word', async () => {
    for (const width of [1400, 760]) {
      const p = await open('', width);
      await p.screenshot({ path: join(SHOTS, `table-${width}.png`), fullPage: true });
      const layout = await p.evaluate(() => {
        const doc = document.documentElement;
        const split: string[] = [];
        const cells = Array.from(document.querySelectorAll<HTMLElement>('tr.pair-row td.name'));
        for (const cell of cells) {
          if (cell.scrollWidth > cell.clientWidth) split.push(`overflowing cell: ${cell.innerText}`);
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const text = n.nodeValue ?? '';
            for (const m of text.matchAll(/[^\s-]+/g)) {
              const range = document.createRange();
              range.setStart(n, m.index);
              range.setEnd(n, m.index + m[0].length);
              const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
              if (tops.size > 1) split.push(m[0]);
            }
          }
        }
        return { overflow: doc.scrollWidth - doc.clientWidth, split, cells: cells.length };
      });
      expect(layout.cells).toBe(8);
      expect(layout.overflow, `page overflow at ${width}px`).toBeLessThanOrEqual(0);
      expect(layout.split, `words broken at ${width}px`).toEqual([]);
      await p.close();
    }
    // Every column is in view at 760 px (the agent moves under the scenario): nothing to scroll to.
    const p = await open('#pair=cms/create-post|claude-code&run=2', 760);
    await p.locator('#pair-0 .panel').screenshot({ path: join(SHOTS, 'table-760-panel.png') });
    const fit = await p.evaluate(() => {
      const wrap = document.querySelector('.table-wrap')!;
      const box = wrap.getBoundingClientRect();
      const heads = Array.from(document.querySelectorAll<HTMLElement>('table.results > thead th'), (th) => ({
        text: th.innerText.trim(),
        r: th.getBoundingClientRect(),
        shown: th.offsetParent !== null,
      })).filter((x) => x.shown);
      const agents = Array.from(
        document.querySelectorAll<HTMLElement>('tr.pair-row .agent-inline'),
        (el) => el.offsetParent !== null && el.innerText.trim(),
      );
      return {
        scroll: wrap.scrollWidth - wrap.clientWidth,
        outside: heads
          .filter((x) => x.r.right > box.right + 0.5 || x.r.left < box.left - 0.5)
          .map((x) => x.text),
        labels: heads.map((x) => x.text.replace(/\s+/g, ' ')),
        hint: (document.querySelector('.scroll-hint') as HTMLElement).hidden,
        agents,
      };
    });
    expect(fit.scroll, 'the table scrolls sideways at 760 px').toBeLessThanOrEqual(0);
    expect(fit.outside).toEqual([]);
    // Cost is in each run's detail line; every other column, the status included, is in view.
    expect(fit.labels).toEqual([
      'Scenario/Agent',
      'AXIS',
      'Goal',
      'Env',
      'Svc',
      'Agent',
      'Duration',
      'Tokens',
      'Status',
    ]);
    expect(fit.agents).toEqual([
      'claude-code',
      'codex',
      LONG_AGENT,
      expect.stringContaining('qwen <script>'),
    ]);
    expect(fit.hint, 'no scroll hint when nothing is hidden').toBe(true);
    await headerGaps(p, 'table.results > thead th', 'results table at 760 px');
    await headerGaps(p, '#pair-0 table.runs thead th', 'runs table at 760 px');
    // Sorting by agent still works from the scenario header.
    await p.getByRole('button', { name: 'Sort by agent' }).click();
    expect(await order(p)).toEqual([0, 2, 1, 3]);
    await p.close();

    // Narrower still, the table scrolls: a visible hint says so, the scenario column stays in view
    // and the open pair's detail stays within the visible part of the table.
    const q = await open('#pair=cms/create-post|claude-code&run=2', 560);
    const wrap = q.locator('.table-wrap');
    await expect(q.locator('.scroll-hint').isVisible()).resolves.toBe(true);
    await expect(q.locator('.scroll-hint').innerText()).resolves.toContain('scroll it sideways');
    await expect(q.locator('.table-outer').getAttribute('class')).resolves.toContain('scrolls');
    await q.locator('.results').screenshot({ path: join(SHOTS, 'table-560-hint.png') });
    const scrolled = await wrap.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
      const box = el.getBoundingClientRect();
      const cell = document.querySelector('tr.pair-row td.name')!.getBoundingClientRect();
      const panel = document.querySelector('#pair-0 .panel')!.getBoundingClientRect();
      return {
        by: el.scrollLeft,
        cell: Math.round(cell.left - box.left),
        panel: [Math.round(panel.left - box.left), Math.round(box.right - panel.right)],
      };
    });
    expect(scrolled.by).toBeGreaterThan(0);
    expect(Math.abs(scrolled.cell)).toBeLessThanOrEqual(1);
    // Within 3 px: the table's sub-pixel column widths can leave the sticky panel a pixel or two off.
    expect(
      scrolled.panel.map(Math.abs).every((e) => e <= 3),
      JSON.stringify(scrolled),
    ).toBe(true);
    // Scrolled to the end, the edge shadow goes (nothing more to the right).
    await expect.poll(() => q.locator('.table-outer').getAttribute('class')).toContain('at-end');
  });

  it('header cells keep apart: no two labels touch, in the results and the runs table, at 1400 px', async () => {
    const p = await open('#pair=cms/create-post|claude-code&run=2', 1400);
    await p
      .locator('#pair-0 .box')
      .first()
      .screenshot({ path: join(SHOTS, 'runs-1400.png') });
    await headerGaps(p, 'table.results > thead th', 'results table at 1400 px');
    await headerGaps(p, '#pair-0 table.runs thead th', 'runs table at 1400 px');
  });
});
