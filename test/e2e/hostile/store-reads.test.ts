/**
 * A stored report is data AXIS wrote, but anyone can edit it: `axis score`, `axis reports` and the HTML
 * writer must treat every path in it as untrusted (confined to the report folder, never followed out by
 * `..`, an absolute path or a symlink) and every shape as unchecked (a clear error naming the report and
 * the field, never an internal error). One real run (the toy command agent) is copied and tampered with
 * per case.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { decodeReportData } from '../../../src/report/html/render.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, NOT_REGULAR_FILES, project, ROOT } from './helpers.js';

checkLeaks();

const AGENT = join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh');
/** No judge keys: scoring must not reach the network. */
const ENV = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined };
const SPOOF_ID = '2099-12-31-235959';

let base: string;
let id: string;

beforeAll(async () => {
  base = project({
    'axis.config.json': {
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
      artifacts: ['out.txt'],
    },
    'scenarios/hello.json': {
      name: 'Write a file',
      prompt: 'Write out.txt please',
      checks: [{ file: 'out.txt', exists: true }],
    },
  });
  const r = await axis(['run', '--no-score'], base, { budgetMs: 90_000, env: ENV });
  expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
  id = readdirSync(join(base, '.axis/reports'))[0]!;
}, 120_000);

/** A fresh copy of the project; `report` is its report folder. */
function copy(): { dir: string; report: string; manifestPath: string } {
  const dir = project();
  cpSync(base, dir, { recursive: true, verbatimSymlinks: true });
  const report = join(dir, '.axis/reports', id);
  return { dir, report, manifestPath: join(report, 'report.json') };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const writeJson = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value, null, 2));
function editManifest(path: string, edit: (m: Json) => void): void {
  const m = readJson(path);
  edit(m);
  writeJson(path, m);
}
/** The data embedded in report.html (deflated, base64). */
const htmlData = (html: string) =>
  decodeReportData(/type="application\/octet-stream"[^>]*>([A-Za-z0-9+/=]+)</.exec(html)![1]!);
const noInternal = (out: { stderr: string; stdout: string }) =>
  expect(`${out.stdout}${out.stderr}`).not.toMatch(/Internal error|bug in AXIS/);

describe('axis score never reads or writes outside the report folder', () => {
  const field = 'results[0].runs[0].files.detail';

  test('a detail path with .. is refused before anything is written', async () => {
    const { dir, report, manifestPath } = copy();
    const victim = join(dir, '.axis/reports/victim');
    mkdirSync(victim);
    cpSync(join(report, 'scenarios/hello/toy.json'), join(victim, 'detail.json'));
    const before = readFileSync(join(victim, 'detail.json'), 'utf8');
    editManifest(manifestPath, (m) => (m.results[0].runs[0].files.detail = '../victim/detail.json'));
    const manifestBefore = readFileSync(manifestPath, 'utf8');

    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    expect(out.stderr).toContain(
      `.axis/reports/${id}/report.json: ${field}: expected a path inside the report folder, found "../victim/detail.json"`,
    );
    expect(out.code).toBe(2);
    expect(readFileSync(join(victim, 'detail.json'), 'utf8')).toBe(before);
    expect(readdirSync(victim)).toEqual(['detail.json']);
    expect(readFileSync(manifestPath, 'utf8')).toBe(manifestBefore);
  });

  test('an absolute detail path (/etc/passwd) is refused and nothing of it is echoed', async () => {
    const { dir, manifestPath } = copy();
    editManifest(manifestPath, (m) => (m.results[0].runs[0].files.detail = '/etc/passwd'));
    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    expect(out.stderr).toContain(`${field}: expected a path inside the report folder, found "/etc/passwd"`);
    expect(`${out.stdout}${out.stderr}`).not.toContain('root:');
    expect(out.code).toBe(2);
  });

  test('a detail file that is a symlink out of the folder is refused and its target left alone', async () => {
    const { dir, report } = copy();
    const outside = join(dir, 'outside.json');
    renameSync(join(report, 'scenarios/hello/toy.json'), outside);
    symlinkSync(outside, join(report, 'scenarios/hello/toy.json'));
    const before = readFileSync(outside, 'utf8');
    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    expect(out.stderr).toContain(
      `${field}: "scenarios/hello/toy.json" leads out of the report folder (through a symlink)`,
    );
    expect(out.code).toBe(2);
    expect(readFileSync(outside, 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'outside.sparse-index.txt'))).toBe(false);
  });

  test('a symlinked folder inside the report leading out is refused too', async () => {
    const { dir, report } = copy();
    const outside = join(dir, 'elsewhere');
    renameSync(join(report, 'scenarios'), outside);
    symlinkSync(outside, join(report, 'scenarios'));
    const listing = readdirSync(join(outside, 'hello')).sort();
    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    expect(out.stderr).toContain(`${field}: "scenarios/hello/toy.json" leads out of the report folder`);
    expect(out.code).toBe(2);
    expect(readdirSync(join(outside, 'hello')).sort()).toEqual(listing);
  });

  test("report.html never embeds a file the detail's artifactsDir points outside at", async () => {
    const { dir, report } = copy();
    const detailPath = join(report, 'scenarios/hello/toy.json');
    const detail = readJson(detailPath);
    detail.files.artifactsDir = '../../../../../../../../etc';
    detail.artifacts = [{ path: 'passwd', size: 100, mimeType: 'text/plain' }];
    writeJson(detailPath, detail);
    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    // No judge here: every run unscored, which axis score reports as a failure; the page is still written.
    expect(out.code, out.stderr).toBe(1);
    expect(out.stderr).toContain('error: no run was scored: no judge available');
    const data = JSON.stringify(htmlData(readFileSync(join(report, 'report.html'), 'utf8')));
    expect(data).not.toContain('root:');
    expect(data).toContain('path outside the report folder');
  });
});

describe('axis score on reports that are not what AXIS wrote', () => {
  test('a result without runs is an error naming the report and the field', async () => {
    const { dir, manifestPath } = copy();
    editManifest(manifestPath, (m) => delete m.results[0].runs);
    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    expect(out.stderr).toContain(
      `.axis/reports/${id}/report.json: results[0].runs: expected an array of runs, found nothing`,
    );
    expect(out.code).toBe(2);
  });

  test('a run whose files are not an object is an error naming the field', async () => {
    const { dir, manifestPath } = copy();
    editManifest(manifestPath, (m) => (m.results[0].runs[0].files = 'toy.json'));
    const out = await axis(['score'], dir, { env: ENV });
    noInternal(out);
    expect(out.stderr).toContain(
      `report.json: results[0].runs[0].files: expected an object of paths, found "toy.json"`,
    );
    expect(out.code).toBe(2);
  });

  for (const [name, content] of [
    ['an object of another program', '{"hello": "world"}'],
    ['an array', '[1, 2, 3]'],
    ['a detail of another pair', null],
  ] as const) {
    test(`a detail file that is ${name} is named, left as it was, and fails the command`, async () => {
      const { dir, report } = copy();
      const detailPath = join(report, 'scenarios/hello/toy.json');
      if (content === null) {
        const d = readJson(detailPath);
        d.agentName = 'someone-else';
        writeJson(detailPath, d);
      } else writeFileSync(detailPath, content);
      const before = readFileSync(detailPath, 'utf8');
      const out = await axis(['score'], dir, { env: ENV });
      noInternal(out);
      expect(out.stderr).toMatch(
        /warning: hello · toy run 1: scenarios\/hello\/toy\.json is not the per-run file of this run \(expected .+\); left as it was/,
      );
      expect(readFileSync(detailPath, 'utf8')).toBe(before);
      expect(out.code).toBe(1);
    });
  }
});

describe('axis reports reads the store defensively', () => {
  test('the folder name is the report id, whatever report.json claims', async () => {
    const { dir, manifestPath } = copy();
    editManifest(manifestPath, (m) => (m.reportId = SPOOF_ID));
    const list = await axis(['reports', '--json'], dir);
    noInternal(list);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { reportId: string }[]).map((r) => r.reportId)).toEqual([id]);
    const text = await axis(['reports'], dir);
    expect(text.stdout).toContain(id);
    expect(text.stdout).not.toContain(SPOOF_ID);
    const one = await axis(['reports', id, '--json'], dir);
    expect((JSON.parse(one.stdout) as { reportId: string }).reportId).toBe(id);
  });

  test('a spoofed id with .. in report.json cannot point the scenario view at another folder', async () => {
    const { dir, manifestPath } = copy();
    editManifest(manifestPath, (m) => (m.reportId = '../../../etc'));
    const out = await axis(['reports', id, 'hello', '--json'], dir);
    noInternal(out);
    expect(out.code, out.stderr).toBe(0);
    expect((JSON.parse(out.stdout) as { reportId: string }).reportId).toBe(id);
  });

  test('a detail path pointing at /etc/passwd shows an error for that run, not the file', async () => {
    const { dir, manifestPath } = copy();
    editManifest(manifestPath, (m) => (m.results[0].runs[0].files.detail = '/etc/passwd'));
    const refused =
      'results[0].runs[0].files.detail: expected a path inside the report folder, found "/etc/passwd"';
    const text = await axis(['reports', id, 'hello'], dir);
    noInternal(text);
    expect(`${text.stdout}${text.stderr}`).not.toContain('root:');
    expect(text.stdout).toContain(refused);
    const json = await axis(['reports', id, 'hello', '--json'], dir);
    noInternal(json);
    expect(`${json.stdout}${json.stderr}`).not.toContain('root:');
    expect((JSON.parse(json.stdout) as { unavailable: string }).unavailable).toContain(refused);
  });

  test('a corrupted report.json is named in the list; the other reports are still listed', async () => {
    const { dir } = copy();
    const reports = join(dir, '.axis/reports');
    const second = '2001-01-01-000000';
    const third = '2001-01-01-000001';
    const fourth = '2001-01-01-000002';
    cpSync(join(reports, id), join(reports, second), { recursive: true });
    mkdirSync(join(reports, third));
    writeFileSync(join(reports, third, 'report.json'), '{"results": [');
    mkdirSync(join(reports, fourth));
    symlinkSync('/dev/zero', join(reports, fourth, 'report.json'));

    const out = await axis(['reports', '--json'], dir, { budgetMs: 20_000 });
    noInternal(out);
    expect(out.hung).toBe(false);
    expect(out.code, out.stderr).toBe(0);
    const rows = JSON.parse(out.stdout) as { reportId: string; error?: string }[];
    expect(rows.map((r) => r.reportId)).toEqual([id, fourth, third, second]);
    expect(rows.find((r) => r.reportId === third)!.error).toMatch(
      new RegExp(`^\\.axis/reports/${third}/report\\.json: invalid JSON`),
    );
    expect(rows.find((r) => r.reportId === fourth)!.error).toBe(
      `.axis/reports/${fourth}/report.json: expected a regular file, found a character device`,
    );
    expect(rows.find((r) => r.reportId === second)!.error).toBeUndefined();

    const text = await axis(['reports'], dir, { budgetMs: 20_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(third);
    expect(text.stdout).toContain('invalid JSON');
  });

  test('axis score on a report.json that is a FIFO fails at once, naming it', async () => {
    const { dir, manifestPath } = copy();
    rmSync(manifestPath);
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [manifestPath]);
    const out = await axis(['score', id], dir, { budgetMs: 20_000, env: ENV });
    noInternal(out);
    expect(out.hung).toBe(false);
    expect(out.stderr).toContain(
      `.axis/reports/${id}/report.json: expected a regular file, found a FIFO (named pipe)`,
    );
    expect(out.code).toBe(2);
  });
});

describe('corrupt store files are named, never echoed to the terminal', () => {
  // Terminal control sequences: clear the screen, set the window title.
  const HOSTILE = '\x1b[2J\x1b]0;pwned\x07{';
  const noControl = (out: { stderr: string; stdout: string }) =>
    expect(['\x1b', '\x07'].filter((c) => `${out.stdout}${out.stderr}`.includes(c))).toEqual([]);

  test('a report.json holding escape sequences: the position and an escaped character', async () => {
    const { dir, manifestPath } = copy();
    writeFileSync(manifestPath, HOSTILE);
    const list = await axis(['reports'], dir, { budgetMs: 20_000 });
    noControl(list);
    expect(list.stdout).toContain('report.json: invalid JSON (at line 1, column 1: ');
    const score = await axis(['score', id], dir, { budgetMs: 20_000, env: ENV });
    noInternal(score);
    noControl(score);
    expect(score.stderr).toMatch(/report\.json: invalid JSON \(at line 1, column 1: .*"\\u001b"/);
    expect(score.code).toBe(2);
  });

  test.each(NOT_REGULAR_FILES)(
    'a baseline that is $name is named at once, never read',
    async ({ make, found }) => {
      const { dir } = copy();
      const path = join(dir, '.axis/baselines/main.json');
      mkdirSync(join(dir, '.axis/baselines'));
      make(path);
      const out = await axis(['baseline', 'show'], dir, { budgetMs: 15_000 });
      expect(out.hung).toBe(false);
      noInternal(out);
      expect(out.stderr).toContain(`.axis/baselines/main.json: expected a regular file, found ${found}`);
      expect(out.code).toBe(2);
    },
  );

  test('a baseline holding escape sequences: the same', async () => {
    const { dir } = copy();
    mkdirSync(join(dir, '.axis/baselines'));
    writeFileSync(join(dir, '.axis/baselines/main.json'), HOSTILE);
    for (const args of [
      ['baseline', 'show'],
      ['baseline', 'list'],
      ['baseline', 'compare'],
    ]) {
      const out = await axis(args, dir, { budgetMs: 20_000 });
      noInternal(out);
      noControl(out);
      expect(`${out.stdout}${out.stderr}`).toMatch(
        /main\.json: not valid JSON at line 1, column 1: .*"\\u001b"/,
      );
      expect(out.code).toBe(2);
    }
  });
});
