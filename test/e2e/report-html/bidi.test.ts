/**
 * Bidi controls in untrusted text (a right-to-left override, U+202E, in the suite's name, a scenario
 * name and an agent's error) end with that text in report.html: the page's own words and the report id
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
 * Whether `text` inside the first element matching `selector` is drawn left to right: its first
 * character's box is left of its last one's. An override leaking into it draws it mirrored.
 */
function readsLeftToRight(page: Page, selector: string, text: string): Promise<boolean> {
  return page.evaluate(
    ([sel, wanted]) => {
      const root = document.querySelector(sel!)!;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = n.textContent!.indexOf(wanted!);
        if (at === -1) continue;
        const box = (i: number) => {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          return r.getBoundingClientRect().left;
        };
        return box(at) < box(at + wanted!.length - 1);
      }
      throw new Error(`"${wanted!}" is not in ${sel!}`);
    },
    [selector, text],
  );
}

describe('report.html with bidi overrides in untrusted text', () => {
  const pages = chromiumPages();

  it(
    "keeps the page's own text after a name or an error left to right",
    async () => {
      const dir = project({
        'agent.mjs': AGENT,
        'scenarios/rlo.json': {
          name: `Scenario ${RLO}evil`,
          prompt: 'Fail',
          checks: [{ result_matches: 'x' }],
        },
      });
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({
          name: `Suite ${RLO}evil`,
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
      const out = await axis(['run', '--no-score'], dir, { budgetMs: T });
      expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(1); // the run failed: the gate fails
      const reports = join(dir, '.axis/reports');
      const id = readdirSync(reports)[0]!;
      const page = await pages.open(
        pathToFileURL(join(reports, id, 'report.html')).href,
        1360,
        'table.results',
      );
      await expect(readsLeftToRight(page, 'header h1', `report ${id}`)).resolves.toBe(true);
      await page.locator('tr.pair-row button.disclose').first().click();
      await expect(
        readsLeftToRight(page, '#pair-0 .banner.bad', 'It counts against reliability'),
      ).resolves.toBe(true);
    },
    T,
  );
});
