/**
 * A command that fails before its reporters report (invalid config, beforeAll, a bad flag) still gives CI
 * its reason: one `::error` annotation under GitHub Actions (or `--reporter github`), and, for
 * `--reporter junit[=<file>]`, a JUnit file whose one testcase is in error; with the annotation, a short
 * section in `$GITHUB_STEP_SUMMARY`; with `-o <dir>`, the `{ "error" }` document there. Without them a PR
 * shows no reason and a test publisher says "no results" (or shows an earlier run's file) instead of a
 * failure.
 */
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { findConfig } from '../config/find.js';
import { oneLine } from '../report/format.js';
import { claimReportDir, formatReportId } from '../report/ids.js';
import { reportsDir } from '../report/locate.js';
import { redactedErrorDocument } from '../report/redacted-error.js';
import { storeDirError } from '../report/store.js';
import { ensureDir } from '../util/ensure-dir.js';
import { runFolderOf } from '../util/errors.js';
import { writeOutputFile } from '../util/output-file.js';
import { appendStepSummary, command, md } from './github.js';
import { isStdoutFile, takesStdout, validReporterSpecs, type ReporterSpec, type Screen } from './index.js';
import { attr, JUNIT_DEFAULT_FILE, text } from './junit.js';
import { shownPath } from '../util/shown-path.js';

export interface FailureOptions {
  /** The `--reporter` values. */
  reporter: readonly string[];
  /** `--json`: stdout holds the `{ "error" }` document. */
  json: boolean;
  /** `-c, --config`: whose `.axis/reports/` a bare `--reporter junit` writes into. */
  config?: string;
  /** `axis run -o <dir>`: gets the `{ "error" }` document as `axis-report-<id>.json`. */
  outputDir?: string;
}

export async function reportFailure(
  opts: FailureOptions,
  err: unknown,
  exitCode: number,
  screen: Screen,
): Promise<void> {
  const specs = specsOf(opts.reporter, screen);
  // Annotations and report files outlive the log: no secret of the environment reaches them.
  const doc = redactedErrorDocument(err, exitCode, screen.env);
  const { message: raw, kind } = doc.error;
  const message = kind === 'internal' ? `Internal error (a bug in AXIS): ${raw}` : raw;
  if (specs.some((s) => s.name === 'github')) {
    const stdoutTaken = opts.json || takesStdout(specs, screen);
    (stdoutTaken ? screen.stderr : screen.stdout).write(command('error', 'AXIS run failed', message));
    // The job summary says it too; one it cannot take is said on stderr, the exit code stays the run's.
    await appendStepSummary(screen, failureSummary(message, exitCode)).catch((err: unknown) => {
      screen.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    });
  }
  const xml = failureJunit(message, kind, exitCode);
  const folder = await writeJunitFiles(specs, xml, opts.config, screen, runFolder(err));
  if (opts.outputDir === undefined) return;
  await writeErrorDocument(resolve(screen.cwd, opts.outputDir), folder, doc, screen);
}

/** Each junit output gets `xml`; returns the report folder a bare one went into (else `folder`). */
async function writeJunitFiles(
  specs: readonly ReporterSpec[],
  xml: string,
  config: string | undefined,
  screen: Screen,
  folder: string | undefined,
): Promise<string | undefined> {
  for (const s of specs) {
    if (s.name !== 'junit') continue;
    if (s.file && isStdoutFile(s.file, screen)) {
      screen.stdout.write(xml);
      continue;
    }
    // A file that cannot take it (the failure itself, maybe) has had its say on stderr.
    if (s.file)
      await writeOutputFile(resolve(screen.cwd, s.file), xml, `--reporter junit=${s.file}`).catch(() => {});
    else folder = (await writeBareJunit(xml, config, screen, folder).catch(() => undefined)) ?? folder;
  }
  return folder;
}

/** The run's own report folder, when the failure came after it was made and it is still there. */
function runFolder(err: unknown): string | undefined {
  const dir = runFolderOf(err);
  try {
    return dir && statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A bare `--reporter junit` writes `<reportDir>/junit.xml`: the run's own folder when it made one (one
 * run, one folder); else a report folder of its own (newest, holding only junit.xml: no report lists it),
 * where the same glob finds it and where an earlier run's file cannot pass for this run's. Returns the
 * folder written into.
 */
async function writeBareJunit(
  xml: string,
  config: string | undefined,
  screen: Screen,
  own: string | undefined,
): Promise<string> {
  const dir = own ?? (await newFolder(reportsDir(configDir(config, screen.cwd)), screen));
  const path = join(dir, JUNIT_DEFAULT_FILE);
  await writeOutputFile(path, xml, '--reporter junit');
  screen.stderr.write(`JUnit report: ${shownPath(path, screen.cwd)}\n`);
  return dir;
}

/** A new report folder under `root`, for the JUnit file alone. */
async function newFolder(root: string, screen: Screen): Promise<string> {
  const id = await claimReportDir(root, new Date()).catch((err: unknown) => {
    screen.stderr.write(
      `--reporter junit: cannot write the JUnit file: ${storeDirError(root, err).message}\n`,
    );
    throw err;
  });
  return join(root, id);
}

/**
 * `-o <dir>` gets `axis-report-<id>.json` in every outcome: here the `{ "error" }` document, under the
 * id of the report folder written (else of this moment), never replacing a file there, so the newest
 * file is this run's and an earlier run's cannot pass for it. A folder that cannot be made is the
 * problem `-o` is refused for before any job: said then, not here.
 */
async function writeErrorDocument(dir: string, folder: string | undefined, doc: unknown, screen: Screen) {
  if (await ensureDir(dir)) return;
  const base = folder ? basename(folder) : formatReportId(new Date());
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  for (let n = 1; n < 100; n++) {
    const path = join(dir, `axis-report-${n === 1 ? base : `${base}-${n}`}.json`);
    try {
      await writeFile(path, text, { flag: 'wx' });
      screen.stderr.write(`Error document: ${shownPath(path, screen.cwd)}\n`);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      screen.stderr.write(`-o/--output-dir: cannot write ${path}: ${(err as Error).message}\n`);
      return;
    }
  }
}

/** The folder of the config the run would have used; the current one when there is none to find. */
function configDir(config: string | undefined, cwd: string): string {
  try {
    return dirname(findConfig(config, cwd));
  } catch {
    return resolve(cwd);
  }
}

/** The valid outputs asked for, and `github` under GitHub Actions. */
function specsOf(values: readonly string[], screen: Screen): ReporterSpec[] {
  const specs: ReporterSpec[] = validReporterSpecs(values, screen.cwd);
  if (screen.env.GITHUB_ACTIONS === 'true' && !specs.some((s) => s.name === 'github'))
    specs.push({ name: 'github' });
  return specs;
}

/** Lines of the message listed in the job summary at most (a config error lists every problem). */
const MAX_SUMMARY_LINES = 50;

/** The job summary's section for a run that failed before reporting: the message, as literal markdown. */
export function failureSummary(message: string, exitCode: number): string {
  const [head = '', ...rest] = message.split('\n');
  const more = rest.map((l) => l.trim()).filter((l) => l !== '');
  const lines = [`## AXIS run failed (exit code ${exitCode})`, '', md(head)];
  if (more.length) lines.push('', ...more.slice(0, MAX_SUMMARY_LINES).map((l) => `- ${md(l)}`));
  if (more.length > MAX_SUMMARY_LINES)
    lines.push(`- … and ${more.length - MAX_SUMMARY_LINES} more (in the log)`);
  return `${lines.join('\n')}\n\n`;
}

/** A JUnit document of one testcase in error, named by the message's first line. */
export function failureJunit(message: string, kind: string, exitCode: number): string {
  const name = oneLine(message.split('\n')[0] ?? '', 200);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="AXIS" tests="1" failures="0" errors="1" time="0.000">',
    `  <testsuite name="axis" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="${attr(new Date().toISOString())}">`,
    '    <properties>',
    `      <property name="exit_code" value="${exitCode}"/>`,
    '    </properties>',
    `    <testcase classname="AXIS" name="${attr(name)}" time="0.000">`,
    `      <error type="${attr(kind)}" message="${attr(message)}">${text(message)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
