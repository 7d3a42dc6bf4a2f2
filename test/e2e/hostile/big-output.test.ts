/**
 * Big outputs: an agent printing far more than the raw log cap gets bounded per-run files and a bounded
 * final answer, and the cut shows in its status and reason (terminal, report.json, detail file), not only
 * as an event inside the transcript.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAW_LOG_CAP_BYTES, TEXT_CAP_CHARS } from '../../../src/exec/output-cap.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { readJson, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';
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
    expect(r.stdout).toMatch(reason);
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
});
