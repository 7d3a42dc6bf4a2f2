/**
 * A hostile agent's tool calls with huge names and call ids (2,000 calls, 5,000-character names, 1,000-
 * character ids: 12 MB the text budget never counted) through a real `axis run`: report.html stays
 * small, and in Chromium each result still names the call it answers.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { axis, project } from '../hostile/helpers.js';

const T = 120_000;
const AGENT = `import { randomBytes } from 'node:crypto';
const line = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
const long = (n) => randomBytes(n / 2).toString('hex');
for (let i = 0; i < 2000; i++) {
  const id = 'call' + i + '_' + long(1000);
  line({ type: 'tool_call', id, name: 'tool' + i + '_' + long(5000), input: { n: i } });
  line({ type: 'tool_result', id, output: 'ok ' + i, exit_code: 0 });
}
line({ type: 'result', text: 'Done' });
`;

describe('report.html of tool calls with huge names and ids', () => {
  const pages = chromiumPages();

  it(
    'stays small, and each result still names its call',
    async () => {
      const dir = project({
        'agent.mjs': AGENT,
        'scenarios/names.json': { name: 'Names', prompt: 'go', checks: [{ result_matches: 'Done' }] },
      });
      writeFileSync(
        join(dir, 'axis.config.json'),
        JSON.stringify({
          scenarios: './scenarios',
          agents: [
            {
              agent: 'command',
              name: 'names',
              command: process.execPath,
              args: [join(dir, 'agent.mjs')],
              output: 'ndjson',
            },
          ],
        }),
      );
      const out = await axis(['run', '--no-score'], dir, { budgetMs: T });
      expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(0);
      const reports = join(dir, '.axis/reports');
      const file = join(reports, readdirSync(reports)[0]!, 'report.html');
      expect(statSync(file).size).toBeLessThan(1_000_000);

      const page = await pages.open(pathToFileURL(file).href, 1360, 'table.results');
      await page.locator('tr.pair-row button.disclose').first().click();
      await page.locator('#pair-0 details.section > summary', { hasText: 'Transcript' }).click();
      const result = page.locator('#pair-0 .ev-tool_result').nth(1);
      await expect(result.locator('.ev-head').innerText()).resolves.toMatch(/← tool1_[0-9a-f]+/);
    },
    T,
  );
});
