/** The system Chromium the report.html tests drive (playwright-core, no downloaded browser). */
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

/**
 * One browser for a describe block; `open` gives a fresh page at a width, closed after each test, and
 * each test fails when its page threw.
 */
export function chromiumPages(): { open(url: string, width: number, ready: string): Promise<Page> } {
  let browser: Browser | undefined;
  let page: Page | undefined;
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    await page?.close();
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async open(url, width, ready) {
      page = await browser!.newPage({ viewport: { width, height: 900 } });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.locator(ready).waitFor();
      return page;
    },
  };
}
