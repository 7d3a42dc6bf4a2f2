/**
 * The reporter registry and fan-out. `--reporter` names (`list`, `json[=file]`, `junit[=file]`,
 * `github`) become reporters; `dispatcher` turns the runner's events into their hooks, and a reporter that
 * throws is reported once and skipped instead of breaking the run.
 */
import type { RunVerdict } from '../compare/verdict-types.js';
import type { RunEvent } from '../runner/events.js';
import { fstatSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AxisError } from '../util/errors.js';
import { checkOutputFile } from '../util/output-file.js';
import { createGithubReporter } from './github.js';
import { createJsonReporter } from './json.js';
import { createJunitReporter } from './junit.js';
import { createListReporter } from './list.js';
import type { Reporter, RunEnd, Screen } from './types.js';

export type { Reporter, RunBegin, RunEnd, Screen, JobProgress } from './types.js';

export const REPORTER_NAMES = ['list', 'json', 'junit', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export interface ReporterSpec {
  name: ReporterName;
  /** `junit=out/axis.xml`: the file, relative to the cwd. */
  file?: string;
}

/**
 * `--reporter junit=out.xml` (repeatable, comma lists too) → specs. Throws AxisError (exit 2). Files are
 * relative to `cwd`: two spellings of one path (`out.xml`, `/abs/out.xml`) are the same file.
 */
export function parseReporterSpecs(values: readonly string[], cwd = process.cwd()): ReporterSpec[] {
  const specs: ReporterSpec[] = [];
  for (const part of values.flatMap((v) => v.split(','))) {
    const raw = part.trim();
    if (!raw) continue;
    const eq = raw.indexOf('=');
    const name = (eq < 0 ? raw : raw.slice(0, eq)) as ReporterName;
    const file = eq < 0 ? undefined : raw.slice(eq + 1);
    if (!REPORTER_NAMES.includes(name)) {
      throw new AxisError(
        `--reporter: unknown reporter "${name}": expected one of ${REPORTER_NAMES.join(', ')}`,
        {
          exitCode: 2,
        },
      );
    }
    if (file !== undefined && (name === 'list' || name === 'github' || file === '')) {
      throw new AxisError(
        `--reporter ${raw}: ${file === '' ? 'expected a file name after "="' : `"${name}" takes no file`}`,
        { exitCode: 2 },
      );
    }
    const same = (s: ReporterSpec) =>
      s.file === file || (!!s.file && !!file && resolve(cwd, s.file) === resolve(cwd, file));
    if (specs.some((s) => s.name === name && same(s))) continue;
    const taken = file && specs.find((s) => s.file && same(s));
    if (taken)
      throw new AxisError(
        `--reporter ${raw}: ${taken.name}=${taken.file} writes the same file; give each output its own file`,
        { exitCode: 2 },
      );
    specs.push({ name, ...(file ? { file } : {}) });
  }
  return specs;
}

/**
 * The outputs among `values` that are valid, each comma part read alone (of two naming one file, the
 * first): a command failing on a bad `--reporter` still writes the others, so no file of an earlier run
 * is left looking current.
 */
export function validReporterSpecs(values: readonly string[], cwd = process.cwd()): ReporterSpec[] {
  const specs: ReporterSpec[] = [];
  for (const part of values.flatMap((v) => v.split(','))) {
    const spec = parseOne(part, cwd);
    const taken = (s: ReporterSpec) =>
      s.file ? sameFile(s.file, spec?.file, cwd) : s.name === spec?.name && !spec.file;
    if (spec && !specs.some(taken)) specs.push(spec);
  }
  return specs;
}

function parseOne(part: string, cwd: string): ReporterSpec | undefined {
  try {
    return parseReporterSpecs([part], cwd)[0];
  } catch {
    return undefined; // the bad value is (part of) the error being reported
  }
}

function sameFile(a: string | undefined, b: string | undefined, cwd: string): boolean {
  return a === b || (!!a && !!b && resolve(cwd, a) === resolve(cwd, b));
}

/**
 * The reporters of a run: the chosen ones, `json` for `--json`, `github` under GitHub Actions, and always
 * the terminal one (on stderr when a document takes stdout).
 */
export async function createReporters(
  specs: readonly ReporterSpec[],
  screen: Screen,
  opts: { json?: boolean },
): Promise<Reporter[]> {
  const all = [...specs];
  if (opts.json && !all.some((s) => s.name === 'json' && !s.file)) all.push({ name: 'json' });
  if (screen.env.GITHUB_ACTIONS === 'true' && !all.some((s) => s.name === 'github'))
    all.push({ name: 'github' });
  const stdoutTaken = takesStdout(all, screen);
  const reporters: Reporter[] = [await createListReporter(screen, { toStderr: stdoutTaken })];
  for (const s of all) {
    // A directory named as the file is refused now, not after the whole run.
    if (s.file) checkOutputFile(resolve(screen.cwd, s.file), `--reporter ${s.name}=${s.file}`);
  }
  for (const s of all) {
    const toStdout = s.file !== undefined && isStdoutFile(s.file, screen);
    if (s.name === 'json') reporters.push(createJsonReporter(screen, toStdout ? undefined : s.file));
    else if (s.name === 'junit') reporters.push(createJunitReporter(screen, s.file, toStdout));
    else if (s.name === 'github') reporters.push(createGithubReporter(screen, { toStderr: stdoutTaken }));
  }
  return reporters;
}

/**
 * Whether the output file named `file` is stdout itself: `/dev/stdout`, `/proc/self/fd/1`, or the very
 * file stdout is redirected to (the same device and inode). Such an output is written to the stdout
 * stream, not opened by name (opening /proc/self/fd/1 fails when stdout is a socket), and the terminal
 * lines go to stderr, so stdout holds the document alone.
 */
export function isStdoutFile(file: string, screen: Pick<Screen, 'stdout' | 'cwd'>): boolean {
  if ((screen.stdout as { fd?: unknown }).fd !== 1) return false;
  try {
    const out = fstatSync(1);
    const named = statSync(resolve(screen.cwd, file));
    return named.dev === out.dev && named.ino === out.ino;
  } catch {
    return false; // a file not there yet (or unreadable) is not stdout
  }
}

/** Whether a document goes to stdout: `json` without a file, or any output whose file is stdout. */
export function takesStdout(specs: readonly ReporterSpec[], screen: Pick<Screen, 'stdout' | 'cwd'>): boolean {
  return specs.some((s) => (s.file ? isStdoutFile(s.file, screen) : s.name === 'json'));
}

/** Fans run events out to every reporter; a throwing reporter is named once on stderr and left out. */
export class Dispatcher {
  private readonly broken = new Set<Reporter>();
  /** The jobs were announced (`run_started`): beforeAll is over. */
  begun = false;
  /** The run's report folder, once the jobs were announced. */
  reportDir: string | undefined;
  /** The gate's verdict, once the runner judged it (`run_finished`). */
  private verdict: RunVerdict | undefined;

  constructor(
    private readonly reporters: readonly Reporter[],
    private readonly screen: Screen,
  ) {}

  readonly onEvent = (event: RunEvent): void => {
    if (event.type === 'run_started') {
      this.begun = true;
      this.reportDir = event.reportDir;
    }
    if (event.type === 'run_finished') this.verdict = event.manifest.verdict;
    for (const r of this.reporters) this.call(r, () => deliver(r, event));
  };

  /** The run is over: each reporter's output is awaited; a failed write fails the command loudly. */
  async end(end: RunEnd, verdict?: RunVerdict): Promise<void> {
    const errors: string[] = [];
    let documentPrinted = false;
    for (const r of this.reporters) {
      if (this.broken.has(r) || !r.onEnd) continue;
      try {
        await r.onEnd(end, verdict);
        documentPrinted ||= r.name === 'json';
      } catch (err) {
        errors.push(`${r.name} reporter: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (errors.length) throw new AxisError(errors.join('\n'), { documentPrinted, reported: true });
  }

  error(err: unknown, exitCode: number): void {
    const run = { begun: this.begun, ...(this.verdict ? { verdict: this.verdict } : {}) };
    for (const r of this.reporters) this.call(r, () => r.onError?.(err, exitCode, run));
  }

  /** Held-back output written now, so a message written around the reporters comes after it. */
  flush(): void {
    for (const r of this.reporters) this.call(r, () => r.flush?.());
  }

  dispose(): void {
    for (const r of this.reporters) this.call(r, () => r.dispose?.());
  }

  private call(r: Reporter, fn: () => void): void {
    if (this.broken.has(r)) return;
    try {
      fn();
    } catch (err) {
      this.broken.add(r);
      this.screen.stderr.write(
        `warning: the ${r.name} reporter failed and is turned off for this run: ${err instanceof Error ? err.message : String(err)}\n`,
      );
    }
  }
}

function deliver(r: Reporter, event: RunEvent): void {
  switch (event.type) {
    case 'run_started': {
      const { type: _type, ...begin } = event;
      return r.onBegin?.({ ...begin, startedAt: Date.now() });
    }
    case 'job_started':
      return r.onJobStart?.(event.job);
    case 'job_setup':
    case 'job_running':
    case 'job_judging':
    case 'job_teardown':
    case 'job_tokens':
    case 'job_retry':
      return r.onJobProgress?.(event);
    case 'job_finished':
      return r.onJobEnd?.(event.job, event.result);
    case 'log':
      return r.onLog?.(event.level, event.message, event.job);
    default:
      return;
  }
}
