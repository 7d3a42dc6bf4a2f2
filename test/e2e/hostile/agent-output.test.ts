/**
 * Hostile output from a `command` agent in `ndjson` mode, through the real CLI: whatever the agent prints,
 * the job ends with a result of its own (never "Internal error"), the raw log is kept whole and no
 * temporary file is left in the report.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EVENTS } from '../../../src/exec/output-cap.js';
import { MAX_EVENT_DEPTH } from '../../../src/transcript/util.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { makeProject, readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

/** A project with one `ndjson` command agent `a` running `node -e <script>` and one scenario `h`. */
function nodeAgentProject(script: string): string {
  const agent = { agent: 'command', name: 'a', command: process.execPath, args: ['-e', script] };
  return makeProject({
    'axis.config.json': { agents: [{ ...agent, output: 'ndjson' }] },
    'scenarios/h.json': { name: 'H', prompt: 'go', checks: [{ result_matches: 'done' }] },
  });
}

interface Detail {
  status: string;
  reason?: string;
  transcript: {
    result: string | null;
    events: { kind: string; subtype?: string; data?: { reason?: string } }[];
  };
}

function reportFolder(dir: string): string {
  const root = join(dir, '.axis/reports');
  return join(root, readdirSync(root)[0]!, 'scenarios/h');
}

/** Prints one tool event nested `depth` levels deep, then the answer `done`. */
const deepEvent = (depth: number, event: 'tool_call' | 'tool_result') => `
  const deep = '{"a":'.repeat(${depth}) + '1' + '}'.repeat(${depth});
  const line = ${JSON.stringify(event)} === 'tool_call'
    ? '{"type":"tool_call","id":"c1","name":"x","input":' + deep + '}'
    : '{"type":"tool_call","id":"c1","name":"x"}\\n{"type":"tool_result","id":"c1","output":' + deep + '}';
  process.stdout.write(line + '\\n{"type":"result","text":"done"}\\n');`;

describe('an ndjson agent printing deeply nested JSON', () => {
  for (const event of ['tool_call', 'tool_result'] as const) {
    it(`a ${event} nested 100000 levels is kept as unparsed; the job completes and keeps its raw log`, async () => {
      const dir = nodeAgentProject(deepEvent(100_000, event));
      const r = await axis(['run', '--no-score'], dir);
      expect(r.stdout + r.stderr).not.toMatch(/Internal error|call stack/);
      expect(r.code).toBe(0);
      const folder = reportFolder(dir);
      expect(readdirSync(folder).filter((f) => f.includes('.tmp-'))).toEqual([]);
      expect(statSync(join(folder, 'a.raw.ndjson')).size).toBeGreaterThan(600_000);
      const detail = readJson<Detail>(join(folder, 'a.json'));
      expect(detail).toMatchObject({ status: 'completed', transcript: { result: 'done' } });
      const unparsed = detail.transcript.events.filter((e) => e.subtype === 'unparsed');
      expect(unparsed.map((e) => e.data?.reason)).toEqual([`nested deeper than ${MAX_EVENT_DEPTH} levels`]);
    }, 60_000);
  }

  it(`a tool_call nested exactly ${MAX_EVENT_DEPTH} levels is a tool call like any other`, async () => {
    const dir = nodeAgentProject(deepEvent(MAX_EVENT_DEPTH - 1, 'tool_call'));
    const r = await axis(['run', '--no-score'], dir);
    expect(r.code).toBe(0);
    const detail = readJson<Detail>(join(reportFolder(dir), 'a.json'));
    expect(detail.status).toBe('completed');
    expect(detail.transcript.events.map((e) => e.kind)).toContain('tool_call');
    expect(detail.transcript.events.filter((e) => e.subtype === 'unparsed')).toEqual([]);
  }, 60_000);
});

describe('an ndjson agent printing a flood of tiny events', () => {
  it(`keeps the first ${MAX_EVENTS} events, says so in the reason, and the detail file stays readable`, async () => {
    const script = `process.stdout.write('{"type":"tool_call"}\\n'.repeat(200000) + '{"type":"result","text":"done"}\\n');`;
    const dir = nodeAgentProject(script);
    const r = await axis(['run'], dir);
    expect(r.stdout + r.stderr).not.toMatch(/Internal error/);
    const detail = readJson<Detail>(join(reportFolder(dir), 'a.json'));
    expect(detail.status).toBe('limit_exceeded');
    expect(detail.reason).toBe(
      `Output limit reached: ${200_001 - MAX_EVENTS} transcript event(s) past the first ${MAX_EVENTS} were dropped`,
    );
    expect(detail.transcript.events).toHaveLength(MAX_EVENTS);
    expect(detail.transcript.result).toBe('done');
    const shown = await axis(['reports', 'latest', 'h'], dir);
    expect(shown.stdout).not.toContain('Detail file unavailable');
  }, 60_000);
});
