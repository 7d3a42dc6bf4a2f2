/**
 * Big outputs: an agent printing far more than the raw log cap gets bounded per-run files and a bounded
 * final answer, and the cut shows in its status and reason (terminal, report.json, detail file), not only
 * as an event inside the transcript.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAW_LOG_CAP_BYTES, TEXT_CAP_CHARS } from '../../../src/exec/output-cap.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist, joinFolded } from '../run/helpers.js';
import { shellProject } from './runtime-helpers.js';

checkLeaks();
beforeAll(buildDist);
afterAll(removeTempDirs);

const MIB = 1024 * 1024;
const PRINTED = 3 * RAW_LOG_CAP_BYTES;

describe('output caps', () => {
  it(`${PRINTED / MIB} MiB of stdout: raw log and answer bounded, status limit_exceeded with the reason`, async () => {
    const dir = shellProject(
      // Lines of 1000 'a's (plus the newline), three times the cap.
      { loud: `cat >/dev/null; head -c ${PRINTED} /dev/zero | tr '\\0' a | fold -w 1000` },
      { loud: {} },
    );
    const r = await axis(['run', '--no-score'], dir);
    const reason =
      /Output limit reached: the agent printed 96\.\d MiB on stdout, the first 32 MiB were kept; the final answer \(\d+ characters\) was cut to its first 1048576 characters/;
    expect(r.stdout).toMatch(/loud +limit_exceeded/);
    expect(joinFolded(r.stdout)).toMatch(reason);
    const root = join(dir, '.axis/reports');
    const id = readdirSync(root)[0]!;
    const manifest = readJson<{ results: { status: string; runs: { status: string; reason?: string }[] }[] }>(
      join(root, id, 'report.json'),
    );
    expect(manifest.results[0]?.runs[0]).toMatchObject({ status: 'limit_exceeded' });
    expect(manifest.results[0]?.runs[0]?.reason).toMatch(reason);
    const detailPath = join(root, id, 'scenarios/loud/loud.json');
    const detail = readJson<{ status: string; transcript: { result: string } }>(detailPath);
    expect(detail.status).toBe('limit_exceeded');
    expect(detail.transcript.result.length).toBeLessThan(TEXT_CAP_CHARS + 200);
    expect(detail.transcript.result).toMatch(/… \[cut by AXIS: \d+ characters, first 1048576 kept\]$/);
    expect(statSync(join(root, id, 'scenarios/loud/loud.raw.ndjson')).size).toBeLessThanOrEqual(
      RAW_LOG_CAP_BYTES,
    );
    // The answer and the one text event, each at most the text cap, plus the rest of the record.
    expect(statSync(detailPath).size).toBeLessThan(3 * TEXT_CAP_CHARS);
  }, 120_000);

  it('a single stdout line past the line limit: the reason says it was cut, never that 32 MiB were kept', async () => {
    // One 50 MiB line (no newline in it): only its first 8 MiB are read as a line, the rest is dropped.
    const dir = shellProject(
      { oneline: `cat >/dev/null; head -c ${50 * MIB} /dev/zero | tr '\\0' a; echo` },
      { one: {} },
    );
    const r = await axis(['run', '--no-score'], dir);
    const root = join(dir, '.axis/reports');
    const id = readdirSync(root)[0]!;
    const manifest = readJson<{ results: { runs: { status: string; reason?: string }[] }[] }>(
      join(root, id, 'report.json'),
    );
    const reason = manifest.results[0]!.runs[0]!.reason ?? '';
    expect(r.stdout).toMatch(/oneline +limit_exceeded/);
    expect(reason).toContain('1 stdout line(s) longer than 8 MiB were cut to their first 8 MiB');
    expect(reason).not.toContain('the first 32 MiB were kept');
  }, 120_000);

  it('an NDJSON event line past the line limit is cut, so the run is not completed', async () => {
    // A 10 MiB text event: under the 32 MiB cap, but cut at 8 MiB it is no longer JSON and its text is lost.
    const dir = shellProject(
      {
        nd:
          `cat >/dev/null; printf '{"type":"text","text":"'; head -c ${10 * MIB} /dev/zero | tr '\\0' a; ` +
          `printf '"}\\n{"type":"result","text":"done"}\\n'`,
      },
      { one: {} },
    );
    const configPath = join(dir, 'axis.config.json');
    const config = readJson<{ agents: Record<string, unknown>[] }>(configPath);
    config.agents[0]!.output = 'ndjson';
    writeFileSync(configPath, JSON.stringify(config));
    const r = await axis(['run', '--no-score'], dir);
    expect(r.stdout, r.stdout + r.stderr).toMatch(/nd +limit_exceeded/);
    expect(joinFolded(r.stdout)).toContain(
      'Output limit reached: 1 stdout line(s) longer than 8 MiB were cut to their first 8 MiB',
    );
  }, 120_000);
});
