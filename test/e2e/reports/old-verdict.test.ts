/**
 * A verdict stored by an earlier AXIS: before it recorded the minimums it applied (`verdict.thresholds`,
 * added after the verdict itself), a verdict held only `pass`, `baseline` and `pairs`. What it checked
 * is then unknown, and every view says so in the same words (the Gate line of `axis reports <id>` and of
 * report.html, the list and its --json): not a bare `pass` that reads like one that held every pair
 * to minimums, nor a `(completion only)` it cannot know either.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { simProject } from '../compare/helpers.js';
import { htmlGate } from '../compare/gate-outputs.js';

const T = 90_000;
let dir = '';
/** Report ids: a pass with no baseline, a pass against baseline `main`, a fail on a threshold. */
const ids = { plain: '', based: '', failed: '' };

interface Verdict {
  thresholds?: unknown;
}

/** The report's verdict as AXIS stored it before `thresholds`: the same object without it. */
function asStoredBeforeThresholds(reportDir: string): void {
  const file = join(dir, reportDir, 'report.json');
  const m = JSON.parse(readFileSync(file, 'utf8')) as { verdict: Verdict };
  expect(m.verdict).toHaveProperty('thresholds');
  delete m.verdict.thresholds;
  writeFileSync(file, JSON.stringify(m, null, 2));
}

async function run(args: string[]): Promise<string> {
  const r = await axis(['run', '--json', ...args], dir);
  const doc = JSON.parse(r.stdout) as { reportId: string; reportDir?: string };
  expect(doc.reportDir, `${args.join(' ')}: ${r.stdout}\n${r.stderr}`).toBeDefined();
  asStoredBeforeThresholds(doc.reportDir!);
  return doc.reportId;
}

beforeAll(async () => {
  buildDist();
  dir = simProject('axis-old-verdict-', {}, ['a']);
  ids.plain = await run([]);
  expect((await axis(['baseline', 'set', '--from', ids.plain], dir)).code).toBe(0);
  ids.based = await run(['--compare-baseline']);
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      ...JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8')),
      settings: { simulate: true, thresholds: { axis_score: 99 } },
    }),
  );
  ids.failed = await run([]);
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOT_RECORDED = 'thresholds not recorded';

describe('a verdict stored before AXIS recorded its thresholds', () => {
  it(
    'axis reports <id> and report.html say the thresholds it checked are not recorded',
    async () => {
      const want = {
        plain: `Gate: pass · ${NOT_RECORDED} · no baseline`,
        based: `Gate: pass · ${NOT_RECORDED} · baseline main (tolerance floor 1)`,
        failed: `Gate: fail · ${NOT_RECORDED} · no baseline`,
      };
      for (const [k, id] of Object.entries(ids)) {
        const line = want[k as keyof typeof want];
        const shown = await axis(['reports', id], dir);
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stdout).toContain(`\n${line}\n`);
        const html = await axis(['reports', id, '--html'], dir, { CI: '1' });
        expect(html.code, html.stderr).toBe(0);
        expect(htmlGate(id, dir)).toMatchObject({ pass: k !== 'failed', line });
      }
    },
    T,
  );

  it(
    'the list marks its pass as not knowing what it checked, in text and --json',
    async () => {
      const list = await axis(['reports'], dir);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^${ids.plain} .* pass \\(${NOT_RECORDED}\\) `, 'm'));
      expect(list.stdout).toMatch(new RegExp(`^${ids.based} .* pass \\(${NOT_RECORDED}\\) `, 'm'));
      expect(list.stdout).toMatch(new RegExp(`^${ids.failed} .* fail `, 'm'));
      const json = JSON.parse((await axis(['reports', '--json'], dir)).stdout) as {
        reportId: string;
        gate: string;
        gateChecks?: string;
        gateCompletionOnly?: true;
        gateThresholdsUnknown?: true;
      }[];
      const plain = json.find((r) => r.reportId === ids.plain)!;
      expect(plain).toMatchObject({
        gate: 'pass',
        gateChecks: `${NOT_RECORDED} · no baseline`,
        gateThresholdsUnknown: true,
      });
      expect(plain.gateCompletionOnly).toBeUndefined();
    },
    T,
  );

  it(
    'a baseline from such a report, and a comparison with one, read it as any other',
    async () => {
      const set = await axis(['baseline', 'set', 'old', '--from', ids.based], dir);
      expect(set.code, set.stderr).toBe(0);
      const cmp = await axis(['baseline', 'compare', 'old', '--report', ids.failed], dir);
      expect(cmp.code, cmp.stderr).toBe(0);
      expect(cmp.stdout + cmp.stderr).not.toMatch(/NaN|undefined|\[object|\n\s+at /);
    },
    T,
  );
});
