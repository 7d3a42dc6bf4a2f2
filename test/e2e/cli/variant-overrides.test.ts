/**
 * A variant's `limits` and `thresholds` over its scenario's, as `axis validate --json` resolves them: both
 * merge field by field (the variant wins per field), then over the settings'. Its `network` mode is the
 * most specific one set; the ports of the settings, the scenario and the variant all apply.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const bin = join(import.meta.dirname, '../../../bin/axis.js');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Resolved {
  key: string;
  limits: { time_minutes?: number; tokens?: number };
  thresholds: Record<string, number>;
  network: { mode: string; ports: number[] };
}

function resolved(scenario: Record<string, unknown>, settings: Record<string, unknown> = {}): Resolved[] {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-variant-')));
  dirs.push(dir);
  mkdirSync(join(dir, 'scenarios'));
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ agents: ['claude-code'], settings }));
  writeFileSync(
    join(dir, 'scenarios/s.json'),
    JSON.stringify({ name: 'S', prompt: 'p', judge: 'ok', ...scenario }),
  );
  // A key: validate checks the agent's credentials too.
  const env = { ...process.env, ANTHROPIC_API_KEY: 'test-key' };
  const r = spawnSync(process.execPath, [bin, 'validate', '--json'], { cwd: dir, encoding: 'utf8', env });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { scenarios: Resolved[] }).scenarios;
}

const settings = {
  limits: { scenario: { time_minutes: 20 } },
  thresholds: { axis_score: 60, reliability: 0.5 },
};

test("a variant's limits merge over its scenario's field by field, like its thresholds", () => {
  const [plain, time, tokens] = resolved(
    {
      limits: { time_minutes: 5, tokens: 1000 },
      thresholds: { axis_score: 50, agent: 40 },
      variants: [
        { name: 'plain' },
        { name: 'tokens', limits: { tokens: 2000 }, thresholds: { axis_score: 70 } },
        { name: 'time', limits: { time_minutes: 9 }, thresholds: { agent: 45 } },
      ],
    },
    settings,
  ); // by key: s@plain, s@time, s@tokens
  expect(plain).toMatchObject({
    key: 's@plain',
    limits: { time_minutes: 5, tokens: 1000 },
    thresholds: { axis_score: 50, agent: 40, reliability: 0.5 },
  });
  // The scenario's time limit stays: the variant only raised the tokens.
  expect(tokens).toMatchObject({
    key: 's@tokens',
    limits: { time_minutes: 5, tokens: 2000 },
    thresholds: { axis_score: 70, agent: 40, reliability: 0.5 },
  });
  expect(time).toMatchObject({
    key: 's@time',
    limits: { time_minutes: 9, tokens: 1000 },
    thresholds: { axis_score: 50, agent: 45, reliability: 0.5 },
  });
});

test("without the scenario's own, a variant's limits and thresholds merge over the settings'", () => {
  const [v] = resolved(
    { variants: [{ name: 'v', limits: { tokens: 300 }, thresholds: { agent: 30 } }] },
    settings,
  );
  expect(v!.limits).toEqual({ time_minutes: 20, tokens: 300 });
  expect(v!.thresholds).toEqual({ axis_score: 60, agent: 30, reliability: 0.5 });
  const [plain] = resolved({});
  expect(plain!.limits).toEqual({ time_minutes: 15 });
  expect(plain!.thresholds).toEqual({});
});

test("a job's network: the mode of the variant, else the scenario, else the settings; the ports of all three", () => {
  const [both, none, own] = resolved(
    {
      network: { mode: 'loopback', ports: [7002] },
      variants: [
        { name: 'own', network: { mode: 'loopback', ports: [7003, 7002] } },
        { name: 'none' },
        { name: 'both', network: 'host' },
      ],
    },
    { network: { mode: 'host', ports: [7001] } },
  ); // by key: s@both, s@none, s@own
  expect(own).toMatchObject({ key: 's@own', network: { mode: 'loopback', ports: [7001, 7002, 7003] } });
  expect(none).toMatchObject({ key: 's@none', network: { mode: 'loopback', ports: [7001, 7002] } });
  // Host reaches every port: the listed ones wait for a loopback mode, as the settings' do.
  expect(both).toMatchObject({ key: 's@both', network: { mode: 'host', ports: [7001, 7002] } });
  const [plain] = resolved({}, { network: 'loopback' });
  expect(plain!.network).toEqual({ mode: 'loopback', ports: [] });
});
