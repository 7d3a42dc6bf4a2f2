/**
 * report.html's summary of real runs (`node bin/axis.js run` with the plan agent, test/fixtures/
 * command-agent) in Chromium: reports without an average say why, in the words `axis reports` uses.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumPages, launchChromium } from './chromium.js';
import { axis, project, ROOT } from '../hostile/helpers.js';
import { goalGrade, PERFECT_AGENT_JUDGE } from '../../helpers/judge-tape.js';

const AGENT = join(ROOT, 'test/fixtures/command-agent/plan-agent.mjs');
const T = 120_000;

/** The simulator's judge: every audit perfect, `MARK_g9` graded 9/10. */
const JUDGE_TAPE = {
  turns: [{ text: 'unused: the plan agent has no model' }],
  judge: [{ match: 'MARK_jdown', fault: { status: 500 } }, PERFECT_AGENT_JUDGE, goalGrade(9)],
};

/** A project of one scenario whose agent follows `plan` over `runs` runs, judged by the simulator. */
function planProject(plan: string, runs = 1): string {
  const dir = project({ 'tapes/one.json': JUDGE_TAPE, 'scenarios/.keep': '' });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
      settings: { concurrency: 1, runs, simulate: true },
      judge: { provider: 'anthropic', max_retries: 0 },
    }),
  );
  writeFileSync(
    join(dir, 'scenarios/one.json'),
    JSON.stringify({
      name: 'One',
      prompt: `Write out.txt PLAN:${plan} KEY:one DIR:${dir}`,
      judge: [{ check: 'out.txt was written' }],
    }),
  );
  return dir;
}

/** `axis run <flags>` in `dir`, then `axis reports latest`; the report's page URL and that text. */
async function run(
  dir: string,
  expectCode: number,
  flags = ['--no-score'],
): Promise<{ url: string; terminal: string }> {
  const out = await axis(['run', ...flags], dir, { budgetMs: T });
  expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(expectCode);
  const reports = join(dir, '.axis/reports');
  const id = readdirSync(reports)[0]!;
  const terminal = (await axis(['reports', 'latest'], dir)).stdout;
  return { url: pathToFileURL(join(reports, id, 'report.html')).href, terminal };
}

describe('report.html summary of a report without an average', () => {
  const pages = chromiumPages();
  const card = async (url: string) => {
    const page = await pages.open(url, 1360, 'section.cards');
    return (await page.locator('section.cards .card').first().innerText()).replace(/\s+/g, ' ');
  };

  it(
    'a --no-score report says "not scored", as axis reports does, never "unscored"',
    async () => {
      const { url, terminal } = await run(planProject('g9'), 0);
      expect(terminal).toContain('not scored (run with --no-score)');
      const text = await card(url);
      expect(text).toMatch(/Average AXIS Result not scored/i);
      expect(text).toContain('run with --no-score');
      expect(text).not.toContain('unscored');
    },
    T,
  );

  it(
    'a report where no run completed says "none: no run completed", as axis reports does',
    async () => {
      const { url, terminal } = await run(planProject('crash'), 1);
      expect(terminal).toContain('none: no run completed');
      const text = await card(url);
      expect(text).toMatch(/Average AXIS Result none/i);
      expect(text).toContain('no run completed');
      expect(text).not.toContain('unscored');
    },
    T,
  );
});

describe('report.html header time', () => {
  it(
    'is the start time axis reports prints, in UTC, whatever the time zone of the browser',
    async () => {
      const { url, terminal } = await run(planProject('g9'), 0);
      const started = /^Started\s+(.+ UTC)$/m.exec(terminal)![1]!;
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ timezoneId: 'America/Los_Angeles' });
        await page.goto(url);
        const meta = await page.locator('header .meta').innerText();
        expect(meta).toContain(`Started ${started}`);
      } finally {
        await browser.close();
      }
    },
    T,
  );
});

describe('report.html summary of a scored report', () => {
  const pages = chromiumPages();

  it(
    'shows the reliability over all runs that axis reports prints',
    async () => {
      // Runs 1 and 3 score, run 2 crashes: 2 of 3 runs completed.
      const { url, terminal } = await run(planProject('g9,crash,g9', 3), 0, []);
      // The header line folds at 80 columns after its ` · `.
      const words = /·\s+(reliability [^·\n]+)/.exec(terminal)![1]!.trim();
      expect(words).toBe('reliability 66% (2/3 runs completed)');
      const page = await pages.open(url, 1360, 'section.cards');
      const runs = (await page.locator('section.cards .card').nth(2).innerText()).replace(/\s+/g, ' ');
      expect(runs).toContain(words);
    },
    T,
  );

  it(
    "says over how many runs a pair's median is, as axis reports does",
    async () => {
      const { url, terminal } = await run(planProject('g9,crash,g9', 3), 0, []);
      const words = /(\d+ runs \(\d+ scored\): median [^·\n]+)/.exec(terminal)![1]!.trim();
      expect(words).toBe('3 runs (2 scored): median 95, range 95–95, σ 0');
      const page = await pages.open(url, 1360, 'section.cards');
      await page.locator('tr.pair-row button.disclose').first().click();
      const box = (await page.locator('#pair-0 .box > .muted').innerText()).replace(/\s+/g, ' ');
      expect(box).toContain(words);
    },
    T,
  );

  it(
    'says over how many pairs the average is, as axis reports does',
    async () => {
      const dir = planProject('g9');
      // A second pair whose judge fails: unscored, so the average is over one pair of two.
      writeFileSync(join(dir, 'tapes/two.json'), JSON.stringify(JUDGE_TAPE));
      writeFileSync(
        join(dir, 'scenarios/two.json'),
        JSON.stringify({
          name: 'Two',
          prompt: `Write out.txt PLAN:jdown KEY:two DIR:${dir}`,
          judge: [{ check: 'out.txt was written' }],
        }),
      );
      const { url, terminal } = await run(dir, 0, []);
      expect(terminal).toContain('average (1 scored, 1 unscored, 0 failed)');
      const page = await pages.open(url, 1360, 'section.cards');
      const card = (await page.locator('section.cards .card').first().innerText()).replace(/\s+/g, ' ');
      expect(card).toContain('1 scored, 1 unscored, 0 failed');
    },
    T,
  );

  it(
    'counts the skipped scenarios with the pairs, as axis reports does',
    async () => {
      const dir = planProject('g9');
      writeFileSync(
        join(dir, 'scenarios/two.json'),
        JSON.stringify({ name: 'Two', prompt: 'never run', skip: true, judge: [{ check: 'x' }] }),
      );
      const { url, terminal } = await run(dir, 0);
      expect(terminal).toContain('1 pair: 1 completed, 0 failed, 1 skipped');
      const page = await pages.open(url, 1360, 'section.cards');
      const pairs = (await page.locator('section.cards .card').nth(1).innerText()).replace(/\s+/g, ' ');
      expect(pairs).toMatch(/^Pairs 1 1 completed · 0 failed · 1 skipped$/i);
    },
    T,
  );

  it(
    'says the cost is simulated, as its rows and axis reports do, not a missing value',
    async () => {
      const { url, terminal } = await run(planProject('g9'), 0, []);
      expect(terminal).toMatch(/toy .* simulated /);
      const page = await pages.open(url, 1360, 'section.cards');
      await expect(page.locator('tr.pair-row td').nth(9).innerText()).resolves.toBe('simulated');
      const cost = (await page.locator('section.cards .card').nth(4).innerText()).replace(/\s+/g, ' ');
      expect(cost).toMatch(/^Cost simulated/i);
    },
    T,
  );

  it(
    'a simulator run stopped by a limit says simulated for the runs it cancelled before they started too',
    async () => {
      // Run 1 passes the run's token limit and is stopped; runs 2 and 3 never start.
      const dir = planProject('g9', 3);
      const config = join(dir, 'axis.config.json');
      const cfg = JSON.parse(readFileSync(config, 'utf8'));
      writeFileSync(
        config,
        JSON.stringify({ ...cfg, settings: { ...cfg.settings, limits: { run: { tokens: 100 } } } }),
      );
      const { url } = await run(dir, 1);
      expect((await axis(['reports'], dir)).stdout).toMatch(
        /^\S+ +1 +– +0 +1 +fail +\S+ +simulated +incomplete$/m,
      );
      expect((await axis(['reports', 'latest', 'one'], dir)).stdout).not.toContain('—');
      const page = await pages.open(url, 1360, 'section.cards');
      const cost = (await page.locator('section.cards .card').nth(4).innerText()).replace(/\s+/g, ' ');
      expect(cost).toMatch(/^Cost simulated/i);
    },
    T,
  );

  it(
    'a page rebuilt without the detail file still says simulated, as axis reports does',
    async () => {
      const dir = planProject('g9');
      const { url } = await run(dir, 0, []);
      const report = join(fileURLToPath(url), '..');
      writeFileSync(join(report, 'scenarios/one/toy.json'), '{ "truncated": ');
      const rebuilt = await axis(['reports', 'latest', '--html'], dir, { env: { CI: '1' } });
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      expect((await axis(['reports', 'latest'], dir)).stdout).toMatch(/toy .* simulated /);
      const page = await pages.open(url, 1360, 'section.cards');
      await expect(page.locator('tr.pair-row td').nth(9).innerText()).resolves.toBe('simulated');
    },
    T,
  );
});
