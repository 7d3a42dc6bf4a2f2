/**
 * A report where one agent reports a cost and another none (`node bin/axis.js run` with two NDJSON
 * agents): report.html's Cost card, `axis reports` and its `--json` give the same lower bound, and say how
 * many runs it leaves out, instead of a total that reads as the whole bill.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { axis, project } from '../hostile/helpers.js';

const T = 120_000;

/** An NDJSON agent that writes out.txt; with `cost`, its usage line carries that cost. */
const agentScript = (cost?: number) => `#!/usr/bin/env node
const out = (e) => process.stdout.write(JSON.stringify(e) + '\\n');
require('node:fs').readFileSync(0, 'utf8');
require('node:fs').writeFileSync('out.txt', 'hi\\n');
out({ type: 'text', text: 'Writing out.txt' });
out({ type: 'usage', input: 100, output: 20${cost === undefined ? '' : `, cost_usd: ${cost}`} });
out({ type: 'result', text: 'Done' });
`;

function costProject(): string {
  const dir = project({
    'scenarios/one.json': { name: 'One', prompt: 'Write out.txt', judge: [{ check: 'out.txt' }] },
  });
  writeFileSync(join(dir, 'paid.cjs'), agentScript(0.5), { mode: 0o755 });
  writeFileSync(join(dir, 'free.cjs'), agentScript(), { mode: 0o755 });
  const agent = (name: string) => ({
    agent: 'command',
    name,
    command: join(dir, `${name}.cjs`),
    output: 'ndjson',
  });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [agent('paid'), agent('free')],
      settings: { concurrency: 1, runs: 3 },
    }),
  );
  return dir;
}

describe('the total cost of a report where some runs reported none', () => {
  const pages = chromiumPages();

  it(
    'is a lower bound everywhere, naming the runs it leaves out',
    async () => {
      const dir = costProject();
      const r = await axis(['run', '--no-score'], dir, { budgetMs: T });
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      const list = await axis(['reports'], dir);
      expect(list.stdout).toMatch(/ ≥ \$1\.5000 \(3 of 6 runs without a cost\)\n/);
      const json = JSON.parse((await axis(['reports', '--json'], dir)).stdout);
      expect(json[0]).toMatchObject({ costUsd: 1.5, runsWithoutCost: 3, runs: 6 });

      const reports = join(dir, '.axis/reports');
      const url = pathToFileURL(join(reports, readdirSync(reports)[0]!, 'report.html')).href;
      const page = await pages.open(url, 1360, 'section.cards');
      const card = page.locator('section.cards .card').filter({ hasText: 'Cost' });
      expect(await card.locator('.value').innerText()).toBe('≥ $1.5000');
      expect(await card.locator('.note').innerText()).toBe('3 of 6 runs without a cost');
    },
    T,
  );
});
