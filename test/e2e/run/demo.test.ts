import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles, readJson } from '../../unit/run/helpers.js';
import { axis, buildDist, ROOT } from './helpers.js';
import { expectValidReport } from '../../helpers/report-schema.js';

const SECRET = 'sk-ant-demo-planted-secret-0123456789';

interface Detail {
  status: string;
  transcript: { result: string | null; events: { kind: string; input?: unknown; isError?: boolean }[] };
  simulator: { requests: number; events: unknown[]; tape: string };
  artifacts: { path: string }[];
  rawLineCount: number;
}

describe('the quick-start suite: the real Claude Code CLI against the simulator', () => {
  let dir: string;
  beforeAll(() => {
    buildDist();
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-demo-e2e-')));
    cpSync(join(ROOT, 'examples/quickstart'), dir, {
      recursive: true,
      filter: (src) => !src.includes('.axis'),
    });
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs all three scenarios and writes the store with the expected files, no secret and no absolute path', async () => {
    const r = await axis(['run'], dir, { ANTHROPIC_API_KEY: SECRET, AXIS_DEMO_TOKEN: SECRET });
    const why = `${r.stdout}\n${r.stderr}`;
    expect(r.code, why).toBe(0);
    const [id] = readdirSync(join(dir, '.axis/reports'));
    expect(r.stdout).toContain(`Report saved: .axis/reports/${id}`);
    const rd = join(dir, '.axis/reports', id!);

    const files = listFiles(rd);
    for (const key of ['errors/failing-tool', 'files/write-and-edit', 'service/http-status']) {
      expect(files).toContain(`scenarios/${key}/claude-code.json`);
      expect(files).toContain(`scenarios/${key}/claude-code.raw.ndjson`);
    }
    expect(files).toContain('report.json');
    expect(files).toContain('report.html');
    expectValidReport(rd);
    expect(files).toContain('scenarios/files/write-and-edit/claude-code/artifacts/notes.md');
    expect(
      readFileSync(join(rd, 'scenarios/files/write-and-edit/claude-code/artifacts/notes.md'), 'utf8'),
    ).toBe('# Notes\nfinal version\n');

    const manifest = readJson<{
      incomplete?: boolean;
      summary: Record<string, number>;
      results: { scenarioKey: string; status: string }[];
    }>(join(rd, 'report.json'));
    expect(manifest.incomplete).toBeUndefined();
    expect(manifest.summary).toMatchObject({
      total: 3,
      completed: 3,
      failed: 0,
      runsTotal: 3,
      runsFailed: 0,
    });

    const detail = (key: string) => readJson<Detail>(join(rd, `scenarios/${key}/claude-code.json`));
    const edit = detail('files/write-and-edit');
    expect(edit.status).toBe('completed');
    expect(edit.transcript.result).toBe("notes.md now reads '# Notes' followed by 'final version'.");
    expect(edit.simulator).toMatchObject({ events: [], tape: 'tapes/files/write-and-edit.json' });

    const service = detail('service/http-status');
    expect(service.transcript.result).toMatch(/HTTP status 200.*"ready"/);
    const curl = service.transcript.events.find((e) => e.kind === 'tool_call');
    expect(JSON.stringify(curl?.input)).toContain('curl -sS -i http://127.0.0.1:47311/status');

    const failing = detail('errors/failing-tool');
    const results = failing.transcript.events.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => e.isError)).toEqual([true, false]);
    expect(failing.transcript.result).toBe('The total the report prints is 42.');
    // The failed command shows in the environment dimension rather than hiding behind the recovery.
    const failingScore = (failing as unknown as { score: { environment: { score: number } } }).score;
    expect(failingScore.environment.score).toBeLessThan(75);

    // Raw output: one JSON document per line, as the CLI printed it (not pretty-printed).
    const raw = readFileSync(join(rd, 'scenarios/files/write-and-edit/claude-code.raw.ndjson'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(raw.length).toBe(edit.rawLineCount);
    for (const line of raw) expect(() => JSON.parse(line)).not.toThrow();
    expect(raw.some((l) => l.includes('"type":"result"'))).toBe(true);

    for (const f of files) {
      const text = readFileSync(join(rd, f), 'utf8');
      expect(text, f).not.toContain(SECRET);
      expect(text, f).not.toMatch(/\/axis-[A-Za-z0-9]{6}\//);
      expect(text, f).not.toContain(dir);
    }
  }, 240_000);
});
