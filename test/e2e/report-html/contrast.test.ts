/**
 * report.html is readable: every piece of text shown meets WCAG AA contrast against what is behind it
 * (4.5:1, 3:1 for large text), in the light and the dark color scheme. The report is the quick start's
 * (examples/quickstart: the real Claude Code CLI against the simulator), with a pair and every section
 * of its breakdown open: score chips of each color, `n/a`, weights, the timeline, the transcript.
 */
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.js';
import { axis, project, ROOT } from '../hostile/helpers.js';

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** Text nodes whose contrast is under the AA minimum: `class color on background ratio: text`. */
function lowContrast(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    const lum = ([r = 0, g = 0, b = 0]: number[]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    const behind = (el: Element | null): number[] => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if ((c[3] ?? 1) > 0.5) return c;
      }
      return rgb(getComputedStyle(document.documentElement).backgroundColor);
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      const cs = getComputedStyle(el);
      if (!n.textContent!.trim() || el.getClientRects().length === 0 || cs.visibility === 'hidden') continue;
      const [a, b] = [lum(rgb(cs.color)), lum(behind(el))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        out.push(
          `${el.className} ${cs.color} on ${behind(el).join(',')} ${ratio.toFixed(2)}: ${n.textContent!.trim().slice(0, 30)}`,
        );
    }
    return out;
  });
}

describe('report.html contrast', () => {
  let browser: Browser;
  let url = '';

  beforeAll(async () => {
    const dir = project();
    cpSync(join(ROOT, 'examples/quickstart'), dir, { recursive: true });
    const out = await axis(['run', '--config', 'axis.config.json'], dir, { budgetMs: 150_000 });
    expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(0);
    const reports = join(dir, '.axis/reports');
    url = pathToFileURL(join(reports, readdirSync(reports)[0]!, 'report.html')).href;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  for (const scheme of ['light', 'dark'] as const)
    it(`meets WCAG AA for every text shown, ${scheme}`, async () => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 }, colorScheme: scheme });
      try {
        await page.goto(url);
        await page.locator('tr.pair-row button.disclose').first().click();
        for (const s of await page.locator('#pair-0 details.section > summary').all()) await s.click();
        await page.locator('#pair-0 .events .ev').first().waitFor();
        // Every score color, whether or not this report has a score in its band.
        await page.evaluate(() => {
          for (const c of ['good', 'fair', 'warn', 'bad', 'na']) {
            const chip = document.createElement('span');
            chip.className = `score s-${c}`;
            chip.textContent = `chip ${c}`;
            document.querySelector('main')!.appendChild(chip);
          }
        });
        expect(await lowContrast(page)).toEqual([]);
      } finally {
        await page.close();
      }
    });
});
