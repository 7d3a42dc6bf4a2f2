/**
 * The raw result store: everything a run writes under `<configDir>/.axis/reports/<reportId>/`.
 *
 * ```
 * report.json                                   manifest: summary + one entry per (scenario, agent) pair
 * scenarios/<scenarioKey>/<agent>.json          per-run detail (runs > 1: <agent>.run-<n>.json)
 * scenarios/<scenarioKey>/<agent>.raw.ndjson    the agent's raw stdout lines (runs > 1: <agent>.run-<n>.raw.ndjson)
 * scenarios/<scenarioKey>/<agent>/artifacts/    captured files (runs > 1: <agent>/run-<n>/artifacts/)
 * scenarios/<scenarioKey>/<agent>.debug.ndjson / .debug.stderr.log   --debug only, written live
 * ```
 *
 * Every file is written through a scrubber: secret values become `[REDACTED]` and the job's temp paths
 * become `<workspace>`, `<home>`, `<tmp>`; paths under the config dir become project-relative. JSON files
 * are written atomically (temp file + rename), so a reader never sees half a file.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { JobResult, RunFiles } from './job-result.js';
import { AxisError } from '../util/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { writeFileAtomicSync } from '../util/small-write.js';
import { claimReportDir } from './ids.js';
import { prettyJsonFile } from './json-chunks.js';
import { reportsDir, type RunPaths } from './locate.js';
import type { ReportManifest } from './manifest.js';
import type { RawLineSink } from '../exec/output-cap.js';
import { openRawFile } from './raw-file.js';
import { createScrubber, type Scrubber } from './scrub.js';

/** A live append-only log (the `--debug` files). Lines are scrubbed before they are written. */
export interface LiveLog {
  write(text: string): void;
  close(): Promise<void>;
}

/** A file of the report that could not be written (disk full, read-only, …). */
export interface StoreFailure {
  /** Relative to the report directory. */
  path: string;
  message: string;
}

export class ReportStore {
  /** Every write that failed, in order: a run with any fails loudly (exit ≠ 0) and names them. */
  readonly failures: StoreFailure[] = [];
  /** Directories made (or being made), so each file write is one write + one rename. */
  private readonly dirs = new Map<string, Promise<void>>();
  /** Directories this store has made (the report folder included): the raw files' synchronous check. */
  private readonly madeDirs = new Set<string>();
  /** The scrubber without job paths, made once (see `scrubber`). */
  private plain: Scrubber | undefined;

  private constructor(
    readonly configDir: string,
    readonly id: string,
    readonly dir: string,
    private readonly secrets: readonly string[],
  ) {
    this.dirs.set(dir, Promise.resolve());
    this.madeDirs.add(dir);
  }

  /**
   * Claims `.axis/reports/<id>/` for a run started at `startedAt`. Throws AxisError (exit 2) naming the
   * path when `.axis/reports` cannot hold reports (a file, read-only, no permission).
   */
  static async create(opts: {
    configDir: string;
    startedAt: Date;
    secrets: readonly string[];
  }): Promise<ReportStore> {
    const root = reportsDir(opts.configDir);
    const id = await claimReportDir(root, opts.startedAt).catch((err: unknown) => {
      throw storeDirError(root, err);
    });
    // A copy of its own that never changes: its scrubbers share what depends on the secrets alone.
    return new ReportStore(opts.configDir, id, join(root, id), Object.freeze([...opts.secrets]));
  }

  /** Absolute path of a report-relative path. */
  abs(rel: string): string {
    return join(this.dir, ...rel.split('/'));
  }

  /**
   * A scrubber for this report plus `paths` (e.g. a job's temp dirs → placeholders). Without `paths`
   * it is one scrubber for the whole run (every job starts with it, every report.json write uses it).
   */
  scrubber(paths: readonly (readonly [string, string])[] = []): Scrubber {
    if (paths.length === 0)
      return (this.plain ??= createScrubber({ secrets: this.secrets, paths: projectPaths(this.configDir) }));
    return createScrubber({ secrets: this.secrets, paths: [...paths, ...projectPaths(this.configDir)] });
  }

  /** Records a lost part of the report (a write that failed outside the store, e.g. artifact copies). */
  recordFailure(rel: string, err: unknown): void {
    // One entry per file (report.json is rewritten many times): its latest failure.
    this.forget(rel);
    // Printed at the end of the run: an error may quote a path that holds a secret.
    this.failures.push({
      path: rel,
      message: createScrubber({ secrets: this.secrets, paths: [] }).text(errorText(err)),
    });
  }

  /** Writes one file atomically; a failure is recorded, then rethrown. */
  /** `data` may come in chunks (long runs' files), so the whole text is never held at once. */
  async write(rel: string, data: string | Buffer | Iterable<string | Buffer>): Promise<void> {
    const path = this.abs(rel);
    const dir = dirname(path);
    try {
      await this.ensureDir(dir);
      await writeFileAtomic(path, data, false);
      this.forget(rel); // rewritten since: nothing lost
    } catch (err) {
      this.recordFailure(rel, err);
      throw err;
    }
  }

  private forget(rel: string): void {
    const earlier = this.failures.findIndex((f) => f.path === rel);
    if (earlier !== -1) this.failures.splice(earlier, 1);
  }

  /** The directory is created once per run of the store, not once per file. */
  private ensureDir(dir: string): Promise<void> {
    // The promise, not a flag: the jobs of one scenario finish together and would each make it.
    let made = this.dirs.get(dir);
    if (!made) {
      made = mkdir(dir, { recursive: true }).then(() => void this.madeDirs.add(dir));
      this.dirs.set(dir, made);
      made.catch(() => this.dirs.delete(dir));
    }
    return made;
  }

  async writeJson(rel: string, value: unknown, scrub: Scrubber = this.scrubber()): Promise<void> {
    await this.write(rel, `${JSON.stringify(scrub.value(value), null, 2)}\n`);
  }

  /** Raw lines, one per line, not pretty-printed. */
  async writeLines(rel: string, lines: readonly string[], scrub: Scrubber = this.scrubber()): Promise<void> {
    await this.write(rel, lines.length > 0 ? lineChunks(lines, scrub) : '');
  }

  /**
   * report.json. Its `results` come from job results that are already scrubbed (by each job's own
   * scrubber, which also knows the job's temp paths), so only the rest is scrubbed here: a rewrite costs
   * one serialization, not a deep copy of every result.
   */
  async writeManifest(manifest: ReportManifest): Promise<void> {
    await this.write('report.json', this.manifestFile(manifest));
  }

  /** report.json written synchronously, for a process about to exit (run.ts); throws on failure. */
  writeManifestSync(manifest: ReportManifest): void {
    writeFileAtomicSync(this.abs('report.json'), this.manifestFile(manifest));
  }

  private manifestFile(manifest: ReportManifest): ReturnType<typeof prettyJsonFile> {
    const { results, ...rest } = manifest;
    return prettyJsonFile({ ...this.scrubber().value(rest), results });
  }

  /**
   * A finished run's files: the raw lines (only when the agent printed any) and the detail file. The
   * result is scrubbed once; the scrubbed copy is written and returned. `files` in it lists only what
   * was written; a file that could not be written is named in `files.missing` instead.
   */
  async writeRun(
    paths: RunPaths,
    raw: { commit(): Promise<boolean> } | undefined,
    result: JobResult,
    scrub: Scrubber,
  ): Promise<JobResult> {
    // A copy of the top level: `files` is set below, and scrub.value may return `result` itself.
    const clean = { ...scrub.value(result) };
    const files: RunFiles = { ...clean.files };
    const missing: string[] = [...(files.missing ?? [])];
    delete files.raw;
    await (raw?.commit() ?? Promise.resolve(false)).then(
      (written) => {
        if (written) files.raw = paths.raw;
      },
      (err: unknown) => {
        this.recordFailure(paths.raw, err);
        missing.push(paths.raw);
      },
    );
    files.detail = paths.detail;
    const written = await this.write(
      paths.detail,
      prettyJsonFile({ reportId: this.id, ...clean, files }),
    ).then(
      () => true,
      () => false,
    );
    if (!written) {
      delete files.detail;
      missing.push(paths.detail);
    }
    if (missing.length) files.missing = missing;
    else delete files.missing;
    clean.files = files;
    return clean;
  }

  /** A run's raw lines, scrubbed and written as they arrive; `writeRun` moves the file into place. */
  openRawLog(rel: string, scrub: Scrubber): RawLineSink {
    const path = this.abs(rel);
    return openRawFile(path, scrub, () => this.ensureDirSync(dirname(path)));
  }

  /**
   * The synchronous twin of ensureDir, for the raw files (made inside the agent's output callback): a
   * `mkdirSync` per job was 25-100 µs each on the VMs AXIS is measured on, whether or not it existed.
   */
  private ensureDirSync(dir: string): void {
    if (this.madeDirs.has(dir)) return;
    mkdirSync(dir, { recursive: true });
    this.madeDirs.add(dir);
    if (!this.dirs.has(dir)) this.dirs.set(dir, Promise.resolve());
  }

  /** Opens an append-only log written as data arrives (`--debug`). A write error is recorded once. */
  async openLog(rel: string, scrub: Scrubber, mode: 'lines' | 'text'): Promise<LiveLog> {
    const path = this.abs(rel);
    await mkdir(dirname(path), { recursive: true });
    const stream: WriteStream = createWriteStream(path, { flags: 'a' });
    let failed = false;
    // a debug log never crashes a run, but a lost one is named at the end
    stream.on('error', (err) => {
      if (!failed) this.recordFailure(rel, err);
      failed = true;
    });
    // Text comes in a pipe's chunks, which may cut a secret in two.
    const pieces = mode === 'text' ? scrub.stream() : undefined;
    return {
      write: (text) => {
        if (!failed) stream.write(pieces ? pieces.push(text) : `${scrub.line(text)}\n`);
      },
      close: () =>
        new Promise<void>((r) => {
          if (failed || stream.destroyed) return r();
          stream.end(pieces?.end() ?? '', () => r());
          stream.once('error', () => r());
        }),
    };
  }
}

/** `.axis/reports` cannot hold reports: one clear sentence naming the path (exit 2; `axis reports merge` too). */
export function storeDirError(root: string, err: unknown): AxisError {
  const code = (err as NodeJS.ErrnoException).code;
  const shown = relative(process.cwd(), root) || root;
  const why =
    code === 'EEXIST' || code === 'ENOTDIR'
      ? `${shown} (or a folder above it) is a file, not a directory`
      : code === 'EACCES' || code === 'EPERM'
        ? `permission denied writing to ${shown}`
        : code === 'EROFS'
          ? `${shown} is on a read-only file system`
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? `no space left on the device holding ${shown}`
            : `${shown}: ${errorText(err)}`;
  return new AxisError(
    `Cannot create a report in ${shown}: ${why}. Reports are written there; fix or move it.`,
    {
      exitCode: 2,
    },
  );
}

/** Scrubbed raw lines joined by newlines, about a megabyte at a time. */
function* lineChunks(lines: readonly string[], scrub: Scrubber): Generator<string> {
  let buf = '';
  for (const l of lines) {
    buf += `${scrub.line(l.replace(/[\r\n]+/g, ' '))}\n`;
    if (buf.length >= 1 << 20) {
      yield buf;
      buf = '';
    }
  }
  if (buf !== '') yield buf;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Config-dir paths become project-relative (`/home/me/proj/scenarios/a.json` → `scenarios/a.json`). */
function projectPaths(configDir: string): [string, string][] {
  const withSep = configDir.endsWith(sep) ? configDir : configDir + sep;
  const out: [string, string][] = [[withSep, '']];
  if (sep === '\\') out.push([withSep.replace(/\\/g, '/'), '']);
  return out;
}
