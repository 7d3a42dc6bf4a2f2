/**
 * A command that fails before its reporters report (invalid config, beforeAll, a bad flag) still gives CI
 * its reason: one `::error` annotation under GitHub Actions (or `--reporter github`), and, for
 * `--reporter junit[=<file>]`, a JUnit file whose one testcase is in error; with the annotation, a short
 * section in `$GITHUB_STEP_SUMMARY`. Without them a PR shows no reason and a test publisher says "no
 * results" (or shows an earlier run's file) instead of a failure.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { findConfig } from '../config/find.js';
import { secretValues } from '../exec/env.js';
import { oneLine } from '../report/format.js';
import { claimReportDir } from '../report/ids.js';
import { reportsDir } from '../report/locate.js';
import { createScrubber } from '../report/scrub.js';
import { storeDirError } from '../report/store.js';
import { errorDocument } from '../util/error-document.js';
import { writeOutputFile } from '../util/output-file.js';
import { appendStepSummary, command, md } from './github.js';
import { isStdoutFile, takesStdout, validReporterSpecs, type ReporterSpec, type Screen } from './index.js';
import { attr, JUNIT_DEFAULT_FILE, text } from './junit.js';

export interface FailureOptions {
  /** The `--reporter` values. */
  reporter: readonly string[];
  /** `--json`: stdout holds the `{ "error" }` document. */
  json: boolean;
  /** `-c, --config`: whose `.axis/reports/` a bare `--reporter junit` writes into. */
  config?: string;
}

export async function reportFailure(
  opts: FailureOptions,
  err: unknown,
  exitCode: number,
  screen: Screen,
): Promise<void> {
  const specs = specsOf(opts.reporter, screen);
  const { message: raw, kind } = errorDocument(err, exitCode).error;
  // Annotations and report files outlive the log: no secret of the environment reaches them.
  const scrub = createScrubber({ secrets: secretValues(screen.env), paths: [] });
  const message = scrub.text(kind === 'internal' ? `Internal error (a bug in AXIS): ${raw}` : raw);
  if (specs.some((s) => s.name === 'github')) {
    const stdoutTaken = opts.json || takesStdout(specs, screen);
    (stdoutTaken ? screen.stderr : screen.stdout).write(command('error', 'AXIS run failed', message));
    // The job summary says it too; one it cannot take is said on stderr, the exit code stays the run's.
    await appendStepSummary(screen, failureSummary(message, exitCode)).catch((err: unknown) => {
      screen.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    });
  }
  for (const s of specs) {
    if (s.name !== 'junit') continue;
    const xml = failureJunit(message, kind, exitCode);
    if (s.file && isStdoutFile(s.file, screen)) {
      screen.stdout.write(xml);
      continue;
    }
    // A file that cannot take it (the failure itself, maybe) has had its say on stderr.
    if (s.file)
      await writeOutputFile(resolve(screen.cwd, s.file), xml, `--reporter junit=${s.file}`).catch(() => {});
    else await writeBareJunit(xml, opts.config, screen).catch(() => {});
  }
}

/**
 * A bare `--reporter junit` writes `<reportDir>/junit.xml`; a run that failed has no report, so the file
 * gets a report folder of its own (newest, holding only junit.xml: no report lists it), where the same
 * glob finds it and where an earlier run's file cannot pass for this run's.
 */
async function writeBareJunit(xml: string, config: string | undefined, screen: Screen): Promise<void> {
  const root = reportsDir(configDir(config, screen.cwd));
  const id = await claimReportDir(root, new Date()).catch((err: unknown) => {
    screen.stderr.write(
      `--reporter junit: cannot write the JUnit file: ${storeDirError(root, err).message}\n`,
    );
    throw err;
  });
  const path = join(root, id, JUNIT_DEFAULT_FILE);
  await writeOutputFile(path, xml, '--reporter junit');
  const rel = relative(screen.cwd, path);
  screen.stderr.write(`JUnit report: ${rel && !rel.startsWith('..') ? rel : path}\n`);
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
