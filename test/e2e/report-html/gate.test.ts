/**
 * The CI gate's verdict on report.html (real Chromium): the page shows the Gate line and one line per
 * failure in the words `axis reports <id>` prints, and nothing for an old report without `verdict`.
 */
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { simProject, tape, writeJson } from '../compare/helpers.js';
import { axis, project } from '../hostile/helpers.js';
import { unfoldCrosses } from '../run/helpers.js';

const T = 120_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const pageOf = (dir: string, id: string) => pathToFileURL(join(dir, '.axis/reports', id, 'report.html')).href;
const newest = (dir: string) => readdirSync(join(dir, '.axis/reports')).sort().at(-1)!;

describe('report.html shows the CI gate', () => {
  const pages = chromiumPages();

  it(
    'a run that missed a threshold and fell below its baseline: Gate: fail, the baseline and each failure',
    async () => {
      const dir = simProject('axis-html-gate-', {}, ['a']);
      dirs.push(dir);
      expect((await axis(['run'], dir, { budgetMs: T })).code).toBe(0);
      expect((await axis(['baseline', 'set'], dir, { budgetMs: T })).code).toBe(0);
      writeJson(dir, 'tapes/a.json', tape(1));
      writeJson(dir, 'scenarios/a.json', {
        name: 'a',
        prompt: 'Write out.txt',
        judge: [{ check: 'written' }],
        thresholds: { axis_score: 99 },
      });
      const run = await axis(['run', '--compare-baseline', 'main'], dir, { budgetMs: T });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
      const id = newest(dir);
      const shown = await axis(['reports', id], dir, { budgetMs: T });
      // Folded to 80 columns in a pipe (gate-lines.test.ts): read as one line again.
      const text = shown.stdout.replace(/\n {6}/g, ' ');
      const gateLine = text.split('\n').find((l) => l.startsWith('Gate: '));
      const failures = shown.stdout
        .split('\n')
        .filter((l) => l.startsWith('  ✗ '))
        .map((l) => l.trimStart());
      expect(gateLine).toBe(
        'Gate: fail · thresholds axis_score (axis.config.json) · baseline main (tolerance floor 1)',
      );
      expect(failures.some((l) => l.includes('threshold 99'))).toBe(true);
      expect(failures.some((l) => l.includes('below the baseline'))).toBe(true);

      const page = await pages.open(pageOf(dir, id), 1360, 'section.gate');
      const gate = page.locator('section.gate');
      await expect(gate.locator('.badge').innerText()).resolves.toBe(gateLine);
      await expect(gate.locator('.badge').getAttribute('class')).resolves.toBe('badge bad');
      await expect(gate.locator('li').allInnerTexts()).resolves.toEqual(failures);
      // Near the top: inside the header, above the summary cards.
      await expect(page.locator('header section.gate').count()).resolves.toBe(1);
    },
    T,
  );

  it(
    "an agent's error quoted in a failure is shown as text: markup in it builds nothing and runs nothing",
    async () => {
      const dir = project({
        'agent.sh': "#!/bin/sh\necho '<img src=x onerror=window.__pwned=1>' >&2\nexit 3\n",
        'scenarios/a.json': { name: 'a', prompt: 'Write out.txt', judge: [{ check: 'written' }] },
      });
      chmodSync(join(dir, 'agent.sh'), 0o755);
      const agent = { agent: 'command', name: 'toy', command: join(dir, 'agent.sh'), output: 'ndjson' };
      writeJson(dir, 'axis.config.json', { scenarios: './scenarios', agents: [agent] });
      expect((await axis(['run', '--no-score'], dir, { budgetMs: T })).code).toBe(1);
      const id = newest(dir);
      const shown = unfoldCrosses((await axis(['reports', id], dir, { budgetMs: T })).stdout).split('\n');
      const failure = shown.find((l) => l.startsWith('  ✗ '))!.trimStart();
      expect(failure).toContain('No run completed: ');
      expect(failure).toContain('<img src=x onerror=window.__pwned=1>');

      const page = await pages.open(pageOf(dir, id), 1360, 'section.gate');
      await expect(page.locator('section.gate li').allInnerTexts()).resolves.toEqual([failure]);
      await expect(page.locator('section.gate img').count()).resolves.toBe(0);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    },
    T,
  );

  it(
    'a passing run says Gate: pass; the same report without verdict (an older AXIS) shows no gate',
    async () => {
      const dir = simProject('axis-html-gate-', {}, ['a']);
      dirs.push(dir);
      expect((await axis(['run'], dir, { budgetMs: T })).code).toBe(0);
      const id = newest(dir);
      let page = await pages.open(pageOf(dir, id), 1360, 'section.gate');
      // No minimum and no baseline: the page says the pass checked nothing more than completion.
      await expect(page.locator('section.gate .badge').innerText()).resolves.toBe(
        'Gate: pass · no thresholds · no baseline (checked only that pairs completed)',
      );
      await expect(page.locator('section.gate li').count()).resolves.toBe(0);
      await page.close();

      const file = join(dir, '.axis/reports', id, 'report.json');
      const { verdict: _, ...old } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify(old, null, 2));
      const rebuilt = await axis(['reports', id, '--html'], dir, { budgetMs: T, env: { CI: '1' } });
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect((await axis(['reports', id], dir, { budgetMs: T })).stdout).not.toContain('Gate:');
      page = await pages.open(pageOf(dir, id), 1360, 'section.cards');
      await expect(page.locator('section.gate').count()).resolves.toBe(0);
      expect(await page.locator('body').innerText()).not.toContain('Gate:');
    },
    T,
  );
});
