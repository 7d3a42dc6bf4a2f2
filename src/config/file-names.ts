/**
 * Agent names and scenario keys become file and folder names in the report
 * (`scenarios/<key>/<agent>.run-<n>.raw.ndjson`, docs/reports.md). A name a file system cannot hold would
 * lose the run's files after it ran, so validation refuses it up front.
 */
import type { PathMessage } from './issues.js';

/** The longest file name Linux and macOS file systems hold, in bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * Bytes a run's file names may add to its agent's name: `.run-19.debug.stderr.log` or
 * `.run-19.sparse-index.txt`, plus the `.tmp-<pid>-<8 characters>` of an atomic write.
 */
const RUN_FILE_SUFFIX_BYTES = 64;

export const MAX_AGENT_NAME_BYTES = MAX_FILE_NAME_BYTES - RUN_FILE_SUFFIX_BYTES;

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const shown = (s: string) => JSON.stringify(s.length > 20 ? `${s.slice(0, 20)}…` : s);

/** The problem of an agent name too long for its report files, if it is. */
export function agentNameProblem(name: string, path: string): PathMessage | undefined {
  if (bytes(name) <= MAX_AGENT_NAME_BYTES) return undefined;
  return {
    path,
    message:
      `expected an agent name of at most ${MAX_AGENT_NAME_BYTES} bytes in UTF-8 (its report files are named ` +
      `after it), found ${shown(name)} (${bytes(name)} bytes); set a shorter "name"`,
  };
}

/** The problem of a scenario key one of whose folders in the report is too long a name, if it is. */
export function keyFolderProblem(
  key: string,
  path: string,
  what: string,
  advice: string,
): PathMessage | undefined {
  const long = key.split('/').find((part) => bytes(part) > MAX_FILE_NAME_BYTES);
  if (long === undefined) return undefined;
  const at = long.lastIndexOf('@');
  const folder = at > 20 ? `${long.slice(0, 20)}…${long.slice(at)}` : shown(long).slice(1, -1);
  return {
    path,
    message:
      `the report folder of ${what}, "${folder}", would be ${bytes(long)} bytes long; a file name holds at ` +
      `most ${MAX_FILE_NAME_BYTES}: ${advice}`,
  };
}
