/**
 * Bidi controls in untrusted text (a right-to-left override, U+202E, in the suite's name and an agent's
 * error) end with that text in report.html: the page's own words and the report id
 * after it still read left to right. A real `axis run` of a command agent, the page in Chromium.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { axis, project } from '../hostile/helpers.js';

const RLO = '\u202e';
const T = 120_000;
const AGENT = `process.stderr.write('fatal: ${RLO}gnorw went it\\n'); process.exit(3);`;

/**
 * The left edges, in `selector`'s first text node holding `text`, of `text`'s characters at `at`
 * (negative: from its end).
 */
function lefts(page: Page, selector: string, text: string, at: number[]): Promise<number[]> {
  return page.evaluate(
    ([sel, wanted, offsets]) => {
      const root = document.querySelector(sel as string)!;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const start = n.textContent!.indexOf(wanted as string);
        if (start === -1) continue;
        return (offsets as number[]).map((o) => {
          const i = start + (o < 0 ? (wanted as string).length + o : o);
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          return r.getBoundingClientRect().left;
        });
      }
      throw new Error(`"${wanted as string}" is not in ${sel as string}`);
    },
    [selector, text, at] as const,
  );
}

/** Whether `text` is drawn left to right: an override leaking into it draws it mirrored. */
async function readsLeftToRight(page: Page, selector: string, text: string): Promise<boolean> {
  const [first, last] = await lefts(page, selector, text, [0, -1]);
  return first! < last!;
}

/** A real `axis run` of an agent that fails, with these suite and scenario names; its report.html. */
async function failedRun(suite: string, scenario: string, times = 1): Promise<{ id: string; url: string }> {
  const dir = project({
    'agent.mjs': AGENT,
    'scenarios/one.json': { name: scenario, prompt: 'Fail', checks: [{ result_matches: 'x' }] },
  });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      name: suite,
      scenarios: './scenarios',
      agents: [
        {
          agent: 'command',
          name: 'toy',
          command: process.execPath,
          args: [join(dir, 'agent.mjs')],
          output: 'ndjson',
        },
      ],
    }),
  );
  for (let i = 0; i < times; i++) {
    const out = await axis(['run', '--no-score'], dir, { budgetMs: T });
    expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(1); // the run failed: the gate fails
  }
  const reports = join(dir, '.axis/reports');
  const id = readdirSync(reports).sort().at(-1)!;
  return { id, url: pathToFileURL(join(reports, id, 'report.html')).href };
}

describe('report.html with bidi overrides in untrusted text', () => {
  const pages = chromiumPages();

  it(
    "keeps the page's own text after a name or an error left to right",
    async () => {
      // A scenario name cannot hold one (validation refuses it); the suite's name and the error can.
      const { id, url } = await failedRun(`Suite ${RLO}evil`, 'Scenario evil');
      const page = await pages.open(url, 1360, 'table.results');
      await expect(readsLeftToRight(page, 'header h1', `report ${id}`)).resolves.toBe(true);
      await page.locator('tr.pair-row button.disclose').first().click();
      await expect(
        readsLeftToRight(page, '#pair-0 .banner.bad', 'It counts against reliability'),
      ).resolves.toBe(true);
    },
    T,
  );

  it(
    'draws a right-to-left name right to left, its punctuation included',
    async () => {
      const suite = 'مرحبا بكم!';
      const scenario = 'שלום עולם!';
      const { url } = await failedRun(suite, scenario, 2); // two reports: the trend has a legend
      const page = await pages.open(url, 1360, 'table.results');
      // Read right to left, the "!" ends the name: it is drawn at its left end.
      for (const [selector, name] of [
        ['header h1', suite],
        ['tr.pair-row button.disclose', scenario],
        ['section.trend .trend-legend', scenario],
      ] as const) {
        const [first, bang] = await lefts(page, selector, name, [0, -1]);
        expect(bang, `${selector}: the "!" of ${name}`).toBeLessThan(first!);
      }
    },
    T,
  );
});
