/**
 * report.html in a real Chromium, opened from disk over file://: every panel, run switching, previews,
 * downloads (a file and the .zip), and proof that injected payloads ran nothing and that the page made
 * no network request.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import { renderReportHtml } from '../../../src/report/html/render.js';
import { fixture, pngBytes, TEXT_ARTIFACT } from '../../unit/report-html/fixture.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS = join(process.cwd(), 'test-results', 'report-html');

describe('report.html in Chromium', () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  let url: string;
  const requests: string[] = [];
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'axis-html-'));
    const { manifest, details } = fixture();
    const file = join(dir, 'report.html');
    writeFileSync(file, renderReportHtml(toHtmlReportData(manifest, details)));
    url = pathToFileURL(file).href;

    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      acceptDownloads: true,
      viewport: { width: 1360, height: 900 },
    });
    context.on('request', (r) => requests.push(r.url()));
    await context.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.goto(url);
    await page.locator('table.results').waitFor();
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the header, the summary and one row per pair with honest missing values', async () => {
    await page.screenshot({ path: join(SHOTS, 'overview.png') });
    await expect(page.title()).resolves.toBe('AXIS report 2026-06-12-205816 — Demo suite');
    const header = await page.locator('header').innerText();
    expect(header).toContain('2026-06-12-205816');
    expect(header).toContain('incomplete');
    expect(header).toContain('3m 43s');
    // The brand, the title and the badges share the header's first row (the rule once named a
    // header.top that the page never builds, so each sat on a line of its own).
    const rowOf = async (sel: string) => (await page.locator(`header .top ${sel}`).first().boundingBox())!;
    const brand = await rowOf('.brand');
    const title = await rowOf('h1');
    const badge = await rowOf('.badge');
    expect(title.x).toBeGreaterThan(brand.x + brand.width);
    expect(badge.x).toBeGreaterThan(title.x + title.width);
    expect(Math.abs(title.y + title.height / 2 - (brand.y + brand.height / 2))).toBeLessThan(title.height);
    const summary = await page.locator('section.cards').innerText();
    expect(summary).toMatch(/Average AXIS Result\s*89/i); // (86 + 93) / 2 = 89.5 over scored pairs, floored
    expect(summary).toContain('3 completed · 1 failed');

    const rows = page.locator('tr.pair-row');
    await expect(rows.count()).resolves.toBe(4);
    const cells = async (i: number) => (await rows.nth(i).locator('td').allInnerTexts()).map((t) => t.trim());
    expect((await cells(0)).slice(2, 7)).toEqual(['86', '88', '92', '81', '79']);
    expect((await cells(1)).slice(2, 7)).toEqual(['93', '95', '96', 'n/a', '88']);
    const unscoredRow = await cells(2);
    expect(unscoredRow[2]).toBe('unscored');
    expect(unscoredRow[6]).toBe('unscored');
    expect(unscoredRow[10]).toContain('agent judge failed: rate limited (429)');
    const failedRow = await cells(3);
    expect(failedRow[2]).toBe('failed');
    expect(failedRow[10]).toContain('command not found');
  });

  it('switches the whole breakdown between runs without leaving the page', async () => {
    await page.locator('tr.pair-row').nth(0).locator('button.disclose').click();
    const panel = page.locator('#pair-0');
    await expect(panel.isVisible()).resolves.toBe(true);
    const runRows = panel.locator('table.runs tbody tr');
    await expect(runRows.count()).resolves.toBe(3);
    await expect(panel.locator('[data-run-view]').getAttribute('data-run-view')).resolves.toBe('1');
    await expect(runRows.nth(0).getAttribute('class')).resolves.toContain('selected');
    expect(await runRows.nth(0).locator('td').last().innerText()).toContain('yes');

    const tip = panel.locator('table.runs th .tip');
    await tip.hover();
    await expect(tip.locator('.tip-body').isVisible()).resolves.toBe(true);
    expect(await tip.locator('.tip-body').innerText()).toContain('nearest the median');
    await page.screenshot({ path: join(SHOTS, 'tooltip.png') });

    const summaryOf = (name: string) => panel.locator(`details[data-section="${name}"] > summary`);
    await expect(summaryOf('transcript').innerText()).resolves.toContain('38 events');
    await runRows.nth(1).click();
    await expect(panel.locator('[data-run-view]').getAttribute('data-run-view')).resolves.toBe('2');
    await expect(runRows.nth(1).locator('button').getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(summaryOf('transcript').innerText()).resolves.toContain('62 events');
    await expect(panel.locator('.overview .big').innerText()).resolves.toBe('72');
    expect(await panel.locator('.insights').innerText()).toContain('Goal achievement: 60/100');
    // Keyboard: the run buttons are real buttons.
    await runRows.nth(2).locator('button').focus();
    await page.keyboard.press('Enter');
    await expect(panel.locator('[data-run-view]').getAttribute('data-run-view')).resolves.toBe('3');
    await expect(summaryOf('transcript').innerText()).resolves.toContain('26 events');

    // Waterfall: 8 tools + 9 reasoning stretches = 17 rows; selecting one opens it in the transcript.
    await expect(panel.locator('.wf-row').count()).resolves.toBe(17);
    await panel.locator('.wf-row').nth(1).hover();
    expect(await panel.locator('.wf-row').nth(1).locator('.wf-tip').innerText()).toMatch(
      /Outcome: ok[\s\S]*Duration/,
    );
    await panel.locator('.wf-row').nth(1).click();
    await expect(panel.locator('details[data-section="transcript"]').getAttribute('open')).resolves.toBe('');
    await expect(panel.locator('.ev.hl').getAttribute('data-event')).resolves.toBe('2');
    await panel.evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, 'runs.png') });
  });

  it('renders cards, judge evaluations, transcript and sanitized notes for a pair full of payloads', async () => {
    await page.locator('tr.pair-row').nth(1).locator('button.disclose').click();
    const panel = page.locator('#pair-1');
    const dims = panel.locator('.dim');
    await expect(dims.count()).resolves.toBe(3);
    expect(await panel.locator('.dim[data-dimension="service"]').innerText()).toContain('n/a');
    const env = panel.locator('.dim[data-dimension="environment"]');
    const envText = await env.innerText();
    expect(envText.indexOf('worked 0')).toBeLessThan(envText.indexOf('Show 1 passing'));
    await expect(env.locator('.audit').count()).resolves.toBe(2);
    await env.getByRole('button', { name: /Show 1 passing/ }).click();
    await expect(env.locator('.audit').count()).resolves.toBe(3);
    const criteria = await panel.locator('.criteria').innerText();
    expect(criteria).toContain('Found via the API.');
    expect(criteria).toContain('<img src=x onerror=');

    await panel.locator('details[data-section="transcript"] > summary').click();
    await panel.locator('.events .ev').first().waitFor();
    const events = await panel.locator('.events').innerText();
    expect(events).toContain('<script>window.__pwned = 1</script>');
    expect(events).toContain('</script><script>window.__pwned = 3; alert(3)</script>');

    await panel.locator('details[data-section="setup-notes"] > summary').click();
    const notes = panel.locator('details[data-section="setup-notes"] .md');
    await notes.waitFor();
    await expect(notes.locator('h2').innerText()).resolves.toBe('Workspace state');
    await expect(notes.locator('table td').count()).resolves.toBe(2);
    await expect(notes.locator('a[href="https://example.com/docs"]').getAttribute('rel')).resolves.toContain(
      'noopener',
    );
    await expect(notes.locator('a').count()).resolves.toBe(1);
    for (const href of await notes.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
      expect(href === null || href.startsWith('https://')).toBe(true);
    await expect(notes.locator('script, img, [onclick], [id]').count()).resolves.toBe(0);
    expect(await notes.innerText()).toContain('plain div text');

    await panel.locator('details[data-section="teardown-notes"] > summary').click();
    await panel.locator('details[data-section="teardown-notes"] .md').waitFor();
    await expect(
      panel.locator('details[data-section="teardown-notes"] blockquote em').innerText(),
    ).resolves.toBe('note');
    await panel.locator('details[data-section="setup-notes"]').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, 'notes.png') });
    await page.screenshot({ path: join(SHOTS, 'full.png'), fullPage: true });
  });

  it('previews, downloads one file and downloads all files as a zip', async () => {
    const panel = page.locator('#pair-1');
    await panel.locator('details[data-section="artifacts"] > summary').click();
    const files = panel.locator('li.file');
    await files.first().waitFor();
    await expect(files.count()).resolves.toBe(4);
    expect(await panel.locator('li.file.skipped').innerText()).toContain('larger than the per-file limit');

    const txt = panel.locator('li.file[data-path="out/result.txt"]');
    await txt.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('pre').textContent()).resolves.toBe(TEXT_ARTIFACT);
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);

    await panel
      .locator('li.file[data-path="out/img/chart.png"]')
      .getByRole('button', { name: 'Preview' })
      .click();
    const img = page.getByRole('dialog').locator('img');
    await img.waitFor();
    await expect(
      img.evaluate((el) =>
        (el as HTMLImageElement).decode().then(() => (el as HTMLImageElement).naturalWidth),
      ),
    ).resolves.toBe(24);
    await page.screenshot({ path: join(SHOTS, 'preview.png') });
    await page.getByRole('dialog').getByRole('button', { name: 'Close preview' }).click();
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);

    const [one] = await Promise.all([
      page.waitForEvent('download'),
      txt.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(one.suggestedFilename()).toBe('result.txt');
    expect(readFileSync(await one.path(), 'utf8')).toBe(TEXT_ARTIFACT);

    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: /Download all/ }).click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/^axis-2026-06-12-205816-hello-world-codex-run1-artifacts\.zip$/);
    const entries = unzipSync(new Uint8Array(readFileSync(await zip.path())));
    expect(Object.keys(entries).sort()).toEqual(['data.json', 'out/img/chart.png', 'out/result.txt']);
    expect(new TextDecoder().decode(entries['out/result.txt'])).toBe(TEXT_ARTIFACT);
    expect(Buffer.from(entries['out/img/chart.png']!).equals(Buffer.from(pngBytes()))).toBe(true);
  });

  it('opens the unscored and failed pairs', async () => {
    await page.locator('tr.pair-row').nth(2).locator('button.disclose').click();
    expect(await page.locator('#pair-2 .banner.na').first().innerText()).toContain(
      'Unscored: agent judge failed',
    );
    await page.locator('tr.pair-row').nth(3).click();
    expect(await page.locator('#pair-3 .banner.bad').innerText()).toContain(
      'Run failed: Cannot start "qwen"',
    );
    await expect(page.locator('#pair-3 .overview').count()).resolves.toBe(0);
    await page.locator('#pair-2').evaluate((el) => el.scrollIntoView());
    await page.screenshot({ path: join(SHOTS, 'unscored-failed.png') });
    // Closing a pair hides its panel again.
    await page.locator('tr.pair-row').nth(3).locator('button.disclose').click();
    await expect(page.locator('#pair-3').isHidden()).resolves.toBe(true);
  });

  it('lays out at 1400 and 760 px: no horizontal overflow, no word-break: break-all anywhere', async () => {
    for (const width of [1400, 760]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SHOTS, `layout-${width}.png`) });
      const layout = await page.evaluate(() => {
        const doc = document.documentElement;
        return {
          overflow: doc.scrollWidth - doc.clientWidth,
          breakAll: Array.from(document.querySelectorAll<HTMLElement>('body *')).filter(
            (el) => getComputedStyle(el).wordBreak === 'break-all',
          ).length,
        };
      });
      expect(layout.overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      expect(layout.breakAll).toBe(0);
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('ran none of the injected payloads and made no network request', async () => {
    const state = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      title: document.title,
      marker: document.getElementById('pwned-marker') !== null,
      scripts: document.scripts.length,
      iframes: document.querySelectorAll('iframe, svg script, base').length,
      violations: (window as unknown as { __violations: string[] }).__violations,
    }));
    expect(state).toEqual({
      pwned: undefined,
      title: 'AXIS report 2026-06-12-205816 — Demo suite',
      marker: false,
      scripts: 2,
      iframes: 0,
      violations: [],
    });
    expect(dialogs).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    const foreign = requests.filter((r) => r !== url && !r.startsWith('data:') && !r.startsWith('blob:'));
    expect(foreign).toEqual([]);
    expect(requests).toContain(url);
  });
});
