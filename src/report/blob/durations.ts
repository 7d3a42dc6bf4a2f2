/**
 * `--shard-durations <report>`: the per-job durations a sharded run is balanced by, read from an earlier
 * report.json (a report directory, its report.json, or a copy of it such as a merged report downloaded
 * from CI). Every shard must be given the same file: the split is computed from it on each machine.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { jobKeyString, type JobDurations } from '../../plan/shard.js';
import { AxisError } from '../../util/errors.js';
import { InputFileError, readInputFile } from '../../util/input-file.js';
import { jsonErrorAt, parseJson } from '../../util/json.js';
import { MAX_JSON_BYTES } from './limits.js';

export async function readDurations(path: string, cwd: string): Promise<JobDurations> {
  let file = resolve(cwd, path);
  const where = `--shard-durations ${path}`;
  const info = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw new AxisError(`${where}: cannot read it (${err.code ?? err.message})`, { exitCode: 2 });
  });
  if (info.isDirectory()) file = join(file, 'report.json');
  let text: string;
  try {
    // Only a regular file under the cap, never blocking: a FIFO or /dev/zero is refused before any read.
    text = readInputFile(file, MAX_JSON_BYTES);
  } catch (err) {
    if (!(err instanceof InputFileError)) throw err;
    const problem =
      info.isDirectory() && err.code === 'ENOENT'
        ? 'a directory without a report.json (expected a report directory such as .axis/reports/<id>, or its report.json)'
        : err.code
          ? `cannot read it (${err.code})`
          : err.message;
    throw new AxisError(`${where}: ${problem}`, { exitCode: 2 });
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch (err) {
    throw new AxisError(`${where}: not a readable report.json (${jsonErrorAt(err)})`, { exitCode: 2 });
  }
  return durationsOf(parsed, where);
}

/** Per-run durations of a parsed report.json, by job key. Entries without a usable duration are skipped. */
export function durationsOf(report: unknown, where: string): JobDurations {
  const results = (report as { results?: unknown } | null)?.results;
  if (!Array.isArray(results))
    throw new AxisError(`${where}: not an AXIS report (expected an object with "results": [...])`, {
      exitCode: 2,
    });
  const out = new Map<string, number>();
  for (const entry of results as unknown[]) {
    const e = entry as { scenarioKey?: unknown; agentName?: unknown; runs?: unknown } | null;
    if (typeof e?.scenarioKey !== 'string' || typeof e.agentName !== 'string' || !Array.isArray(e.runs))
      continue;
    for (const r of e.runs as { run?: unknown; durationMs?: unknown }[]) {
      if (!Number.isInteger(r?.run) || typeof r.durationMs !== 'number' || !(r.durationMs >= 0)) continue;
      out.set(
        jobKeyString({ scenarioKey: e.scenarioKey, agentName: e.agentName, run: r.run as number }),
        r.durationMs,
      );
    }
  }
  return out;
}
