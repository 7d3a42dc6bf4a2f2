/**
 * `axis score` rescores a report with the profile it was made with (report.json `profile`) unless
 * `--profile` names another, and refuses (exit 2, nothing rewritten) when that profile is gone from the
 * config. The profiles differ only in `scoring_weights`, so the rescored AXIS Result shows which was used:
 * goal 50, env 100, agent 100 (svc n/a) make 50 with the goal-only weights, 75 with the defaults and 83
 * with even ones.
 */
import { readFileSync, realpathSync, rmSync, mkdtempSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist } from '../run/helpers.js';
import { AGENT, tape } from '../compare/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 60_000;
let dir = '';
const write = (rel: string, content: unknown) => writeIn(dir, rel, content);
const weights = (goal: number, rest: number) => ({
  scoring_weights: { goal_achievement: goal, environment: rest, service: rest, agent: rest },
});
const config = (profiles: Record<string, unknown>) => ({
  scenarios: './scenarios',
  agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
  settings: { simulate: true },
  judge: { provider: 'anthropic', max_retries: 0 },
  profiles,
});
const PROFILES = { goal: { settings: weights(1, 0) }, even: { settings: weights(0.25, 0.25) } };

interface Manifest {
  reportId: string;
  profile?: string;
  results: { score?: { axisScore: number | null; goalAchievement: { score: number | null } } }[];
}
const reportPath = (id: string) => join(dir, '.axis/reports', id, 'report.json');
const manifest = (id: string) => JSON.parse(readFileSync(reportPath(id), 'utf8')) as Manifest;
const axisScore = (id: string) => manifest(id).results[0]!.score!.axisScore;

let reportId = '';

beforeAll(async () => {
  buildDist();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-score-profile-')));
  write('axis.config.json', config(PROFILES));
  write('scenarios/hello.json', { name: 'hello', prompt: 'Write out.txt', judge: 'out.txt was written' });
  write('tapes/hello.json', tape(5));
  const run = await axis(['run', '--profile', 'goal', '--json'], dir);
  expect(run.code, run.stderr).toBe(0);
  reportId = (JSON.parse(run.stdout) as Manifest).reportId;
  expect(manifest(reportId).profile).toBe('goal');
  expect(axisScore(reportId)).toBe(50);
}, T);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('axis score and the report profile', () => {
  it(
    'rescores with the profile the report was made with, and says so',
    async () => {
      const r = await axis(['score', reportId], dir);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(axisScore(reportId)).toBe(50); // the goal-only weights; the base config's would give 75
      expect(r.stdout).toContain('AXIS 50 · goal 50');
      expect(r.stderr).toContain(`profile "goal" (the profile report ${reportId} was made with)`);
    },
    T,
  );

  it(
    'lets --profile pick another profile',
    async () => {
      const r = await axis(['score', reportId, '--profile', 'even', '--json'], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(axisScore(reportId)).toBe(83);
      expect(r.stderr).not.toContain('was made with');
      // Back to the report's own profile for the next test.
      expect((await axis(['score', reportId], dir)).code).toBe(0);
      expect(axisScore(reportId)).toBe(50);
    },
    T,
  );

  it(
    'refuses, rewriting nothing, when the report profile is gone from the config',
    async () => {
      write('axis.config.json', config({ even: PROFILES.even }));
      const before = readFileSync(reportPath(reportId), 'utf8');
      const html = statSync(join(dir, '.axis/reports', reportId, 'report.html')).mtimeMs;
      try {
        const r = await axis(['score'], dir);
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).toContain(`Report ${reportId} was made with profile "goal"`);
        expect(r.stderr).toContain('axis.config.json no longer declares it (known profiles: even)');
        expect(r.stderr).toContain('--profile <name>');
        expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(readFileSync(reportPath(reportId), 'utf8')).toBe(before);
        expect(statSync(join(dir, '.axis/reports', reportId, 'report.html')).mtimeMs).toBe(html);
        expect(existsSync(join(dir, '.axis/reports', reportId, 'score.pending'))).toBe(false);
        // Naming a profile that exists proceeds.
        const ok = await axis(['score', '--profile', 'even'], dir);
        expect(ok.code, ok.stderr).toBe(0);
        expect(axisScore(reportId)).toBe(83);
      } finally {
        write('axis.config.json', config(PROFILES));
      }
    },
    T,
  );
});
