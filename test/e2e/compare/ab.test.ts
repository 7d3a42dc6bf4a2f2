/**
 * `axis compare` end to end: a real 3-run report (the toy `command` agent under the simulator, which plays
 * the judge from each variant's tape), then the A/B of its variants through `node bin/axis.js`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { AGENT, tape } from './helpers.js';

const T = 240_000;
let dir = '';
const write = (rel: string, content: unknown) => {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`);
};

beforeAll(() => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-ab-e2e-')));
  write('axis.config.json', {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
    settings: { simulate: true, runs: 3 },
    judge: { provider: 'anthropic', max_retries: 0 },
  });
  write('scenarios/docs/search.json', {
    name: 'Search',
    prompt: 'Write out.txt',
    judge: [{ check: 'out.txt was written' }],
    variants: [
      { name: 'plain', tape: '../../tapes/plain.json' },
      { name: 'with-mcp', tape: '../../tapes/mcp.json' },
    ],
  });
  write('tapes/plain.json', tape(3));
  write('tapes/mcp.json', tape(9));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis compare through the CLI', () => {
  it(
    'a real 3-run report: --variants prints the lift and the verdict, --json one document, bad input exits 2',
    async () => {
      const run = await axis(['run'], dir);
      expect(run.code, run.stdout + run.stderr).toBe(0);

      // Without a config file to load: -c names the project directory only.
      const r = await axis(['compare', '--variants', 'plain,with-mcp', '-c', dir], tmpdir());
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Variant "with-mcp" vs "plain" in report \S+ · "plain" plays the baseline/);
      expect(r.stdout).toMatch(/\ndocs\/search +toy +(\d+) +(\d+) +\+\d+ ▲\n/);
      expect(r.stdout).toContain('1 better, 0 worse, 0 no clear difference');
      expect(r.stdout).toContain('Verdict: "with-mcp" is better ▲ than "plain"\n');

      const j = await axis(['compare', 'latest', '--variants', 'plain,with-mcp', '--json'], dir);
      expect(j.code, j.stderr).toBe(0);
      const doc = JSON.parse(j.stdout);
      expect(doc).toMatchObject({
        mode: 'variants',
        names: ['plain', 'with-mcp'],
        verdict: 'better',
        counts: { better: 1, worse: 0, unclear: 0 },
        notComparable: [],
      });
      expect(doc.entries[0]).toMatchObject({
        scenario: 'docs/search',
        agent: 'toy',
        a: 'docs/search@plain',
        b: 'docs/search@with-mcp',
        change: 'improved',
        runs: { baseline: 3, current: 3 },
      });
      expect(doc.entries[0].current).toBeGreaterThan(doc.entries[0].baseline);
      expect(doc.entries[0].metrics).toHaveLength(7);
      expect(doc.entries[0].metrics[1]).toMatchObject({ metric: 'goalAchievement', delta: 60 });

      // The reverse question is answered honestly: worse.
      const back = await axis(['compare', '--variants', 'with-mcp,plain'], dir);
      expect(back.stdout).toContain('Verdict: "plain" is worse ▼ than "with-mcp"\n');

      for (const [args, msg] of [
        [['compare'], 'exactly one of --variants <a,b> or --agents <a,b>'],
        [['compare', '--variants', 'a,b', '--agents', 'x,y'], 'exactly one of --variants'],
        [['compare', '--variants', 'plain'], '--variants: expected exactly two comma-separated names'],
        [['compare', '--agents', 'toy,toy'], '--agents: the two names must differ'],
        [['compare', '--variants', 'plain,mcp'], 'has no variant "mcp"; its variants: "plain", "with-mcp"'],
        [['compare', '--agents', 'toy,codex'], 'has no agent "codex"; its agents: "toy"'],
      ] as const) {
        const bad = await axis([...args], dir);
        expect(bad.code, `${args.join(' ')}: ${bad.stderr}`).toBe(2);
        expect(bad.stderr).toContain(msg);
        expect(bad.stderr).not.toContain('Internal error');
      }
      const badJson = await axis(['compare', '--variants', 'x', '--json'], dir);
      expect(badJson.code).toBe(2);
      expect(JSON.parse(badJson.stdout).error).toBeDefined();
    },
    T,
  );
});
