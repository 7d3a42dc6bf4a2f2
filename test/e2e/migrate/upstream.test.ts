/**
 * A project written for upstream AXIS (netlify/axis 1.17) — its config, scenario and adapter shapes —
 * loads and runs here: description/tags, -t/--tag, helper modules in the scenarios folder, and an
 * upstream-style adapter module that returns { transcript, result, metadata }.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist, ROOT } from '../run/helpers.js';

const FIXTURE = join(ROOT, 'test/fixtures/upstream-project');
const dirs: string[] = [];
function copyProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-upstream-')));
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}
/** Keys for its agents: validate checks credentials too (credentials-one-pass.test.ts). */
const KEYS = { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k' };
beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('an upstream-style project', () => {
  it('validates: its config, JSON and TS scenarios load, the helper module is skipped with a notice', async () => {
    const dir = copyProject();
    const r = await axis(['validate', '--json'], dir, KEYS);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      scenarios: { key: string; description?: string; tags: string[] }[];
      notices: string[];
    };
    expect(plan.scenarios.map((s) => s.key)).toEqual([
      'cms/create-post@baseline',
      'cms/create-post@terse',
      'cms/create-post@with-skills',
      'cms/edit-post@no-context',
      'cms/edit-post@with-skills',
      'hello-world',
      'legacy/commonjs',
      'legacy/typed',
    ]);
    expect(plan.scenarios.find((x) => x.key === 'hello-world')).toMatchObject({
      description: 'The smallest scenario: one file with one line.',
      tags: ['smoke', 'files'],
    });
    expect(plan.notices).toEqual([
      expect.stringContaining('scenarios/shared/variants.ts: skipped, not a scenario'),
    ]);
    expect(r.stderr).toContain('note: scenarios/shared/variants.ts: skipped');
  });

  it('-t/--tag selects scenarios by tag; an unknown tag is exit 2 listing the tags in use', async () => {
    const dir = copyProject();
    const smoke = await axis(['validate', '--json', '-t', 'smoke'], dir, KEYS);
    expect(smoke.code, smoke.stderr).toBe(0);
    const jobs = (JSON.parse(smoke.stdout) as { jobs: { scenario: string }[] }).jobs;
    expect(new Set(jobs.map((j) => j.scenario))).toEqual(new Set(['hello-world']));
    const cms = await axis(['validate', '--json', '--tag', 'mcp,smoke'], dir, KEYS);
    const cmsJobs = (JSON.parse(cms.stdout) as { jobs: { scenario: string }[] }).jobs;
    expect(new Set(cmsJobs.map((j) => j.scenario))).toEqual(
      new Set([
        'hello-world',
        'cms/create-post@baseline',
        'cms/create-post@terse',
        'cms/create-post@with-skills',
      ]),
    );
    const bad = await axis(['validate', '-t', 'smok'], dir, KEYS);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('No scenario has the tag "smok". Tags in use: cms, files, mcp, smoke');
  });

  it('an upstream-style adapter runs end to end: it works in the job workspace and its transcript is mapped', async () => {
    const dir = copyProject();
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: ['./run-scenarios'],
        agents: ['echo'],
        adapters: { echo: './adapters/echo-adapter.ts' },
      }),
    );
    rmSync(join(dir, 'axis.config.ts'));
    cpSync(join(dir, 'scenarios/hello-world.json'), join(dir, 'run-scenarios/hello.json'));
    const scenario = JSON.parse(readFileSync(join(dir, 'run-scenarios/hello.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    scenario.checks = [{ file: 'echo.txt', contains: 'Hello, World!' }];
    writeFileSync(join(dir, 'run-scenarios/hello.json'), JSON.stringify(scenario));
    const r = await axis(['run', '--no-score', '--json'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const doc = JSON.parse(r.stdout) as { reportId: string; results: Record<string, unknown>[] };
    expect(doc.results).toHaveLength(1);
    expect(doc.results[0]).toMatchObject({ status: 'completed' });
    const detail = JSON.parse(
      readFileSync(join(dir, '.axis/reports', doc.reportId, 'scenarios/hello/echo.json'), 'utf8'),
    ) as { transcript?: { events: { kind: string; name?: string; text?: string }[]; result: string } };
    const text = JSON.stringify(detail);
    expect(text).toContain('echoed: Create a file called hello.txt');
    expect(text).toContain('"kind":"tool_call"');
  });

  it('an adapter that throws fails its run with a clear reason, no stack trace, and a complete report', async () => {
    const dir = copyProject();
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: ['./scenarios/hello-world.json'],
        agents: ['broken'],
        adapters: { broken: './adapters/broken-adapter.ts' },
      }),
    );
    rmSync(join(dir, 'axis.config.ts'));
    const r = await axis(['run', '--no-score', '--json'], dir);
    expect(r.code, r.stderr).toBe(1);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at |Internal error/);
    const doc = JSON.parse(r.stdout) as { reportId: string; results: Record<string, unknown>[] };
    expect(JSON.stringify(doc.results[0])).toContain(
      'adapter \\"broken\\" threw: the vendor CLI is not installed',
    );
    const reports = readdirSync(join(dir, '.axis/reports'));
    expect(reports).toEqual([doc.reportId]);
    expect(existsSync(join(dir, '.axis/reports', doc.reportId, 'report.json'))).toBe(true);
    expect(existsSync(join(dir, '.axis/reports', doc.reportId, 'report.html'))).toBe(true);
  });

  it("validate loads adapter modules as run does: one built with upstream's createAgentAdapter is exit 2 naming it", async () => {
    const dir = copyProject();
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: ['./scenarios/hello-world.json'],
        agents: ['echo-sh'],
        adapters: { 'echo-sh': './adapters/factory-adapter.ts' },
      }),
    );
    rmSync(join(dir, 'axis.config.ts'));
    for (const command of ['validate', 'run']) {
      const r = await axis([command, '--no-score'].slice(0, command === 'run' ? 2 : 1), dir);
      expect(r.code, `${command}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('adapters/factory-adapter.ts: adapters.echo-sh: cannot load adapter module');
      expect(r.stderr).not.toMatch(/\n\s+at /);
      // It says what to do instead, not only that the package is missing.
      expect(r.stderr).toContain('@netlify/axis is upstream AXIS');
      expect(r.stderr).toContain('docs/migrating.md');
    }
  });
});
