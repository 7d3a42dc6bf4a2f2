import { resolve } from 'node:path';
import { AxisError } from '../util/errors.js';
import { safeText } from '../util/safe-text.js';

type CommandModule = { default: (...args: never[]) => Promise<number | void> };

/**
 * Wraps a lazily imported command. User errors (AxisError) print their message and exit with their
 * code; anything else is an AXIS bug and says so, with the stack only under AXIS_DEBUG. With `--json`
 * (or a json reporter) the error is also printed as `{ "error": { … } }`, so each holds one document.
 */
export function runAction(load: () => Promise<CommandModule>) {
  return async (...args: unknown[]): Promise<void> => {
    try {
      const mod = await load();
      const code = await (mod.default as (...a: unknown[]) => Promise<number | void>)(...args);
      if (typeof code === 'number') process.exitCode = code;
    } catch (err) {
      const code = await reportError(err);
      process.exitCode = code;
      const opts = optionsOf(args);
      if (!(err instanceof AxisError && err.documentPrinted)) await printErrorDocuments(opts, err, code);
      if (!(err instanceof AxisError && err.reported)) await reportToCi(opts, err, code);
    }
  };
}

interface OutputOptions {
  json?: unknown;
  reporter?: unknown;
  config?: unknown;
  outputDir?: unknown;
}

/** Commander passes (...positionals, options, command). */
function optionsOf(args: readonly unknown[]): OutputOptions {
  const raw = args[args.length - 2];
  return typeof raw === 'object' && raw !== null ? (raw as OutputOptions) : {};
}

/**
 * `--json`, and `--reporter json[=file]` (axis run, axis reports merge), get the `{ "error" }` document:
 * each holds one document in every outcome, redacted as `-o <dir>`'s is.
 */
async function printErrorDocuments(opts: OutputOptions, err: unknown, exitCode: number): Promise<void> {
  const specs = Array.isArray(opts.reporter) ? await jsonSpecs(opts.reporter as string[]) : [];
  const toStdout = opts.json === true || specs.some((s) => !s.file);
  const files = specs.flatMap((s) => (s.file ? [s.file] : []));
  if (!toStdout && files.length === 0) return;
  const { redactedErrorDocument } = await import('../report/redacted-error.js');
  const text = `${JSON.stringify(redactedErrorDocument(err, exitCode, process.env), null, 2)}\n`;
  if (toStdout) process.stdout.write(text);
  if (files.length === 0) return;
  const { writeOutputFile } = await import('../util/output-file.js');
  for (const file of files) {
    // A file that cannot take it (the failure itself, maybe) has had its say on stderr.
    await writeOutputFile(resolve(file), text, `--reporter json=${file}`).catch(() => {});
  }
}

/**
 * `axis run` and `axis reports merge` (the commands with `--reporter`) failed before their reporters had
 * their end: the annotation and JUnit file CI reads still say why (src/reporters/failure.ts).
 */
async function reportToCi(opts: OutputOptions, err: unknown, exitCode: number): Promise<void> {
  if (!Array.isArray(opts.reporter)) return;
  const { reportFailure } = await import('../reporters/failure.js');
  const screen = { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
  const reporter = opts.reporter.filter((v): v is string => typeof v === 'string');
  const config = typeof opts.config === 'string' ? { config: opts.config } : {};
  const outputDir = typeof opts.outputDir === 'string' ? { outputDir: opts.outputDir } : {};
  await reportFailure({ reporter, json: opts.json === true, ...config, ...outputDir }, err, exitCode, screen);
}

/** The valid json reporters asked for (a bad value beside them is the error). Loaded only on this path. */
async function jsonSpecs(values: string[]): Promise<{ file?: string }[]> {
  const { validReporterSpecs } = await import('../reporters/index.js');
  return validReporterSpecs(values).filter((s) => s.name === 'json');
}

/**
 * A usage error commander has already printed on stderr: with `--json`, stdout still gets its one
 * `{ "error": … }` document (kind `usage`, exit 2); for `axis run` and `axis reports merge` (`reporter`
 * given) the json reporters get it too, and CI its annotation and JUnit file, as for any early failure.
 */
export async function usageError(
  message: string,
  opts: { json: boolean; reporter?: string[]; config?: string; outputDir?: string },
): Promise<void> {
  const err = new AxisError(message.replace(/^error: /, ''), { exitCode: 2 });
  await printErrorDocuments(opts, err, 2);
  await reportToCi(opts, err, 2);
}

export async function reportError(err: unknown): Promise<number> {
  // A CI log keeps stderr: no secret value of the environment is printed (redacted-error.ts).
  const { redactText } = await import('../report/redacted-error.js');
  const shown = (text: string) => redactText(text, process.env);
  if (err instanceof AxisError) {
    // A message can quote a script's output (a failed beforeAll): no escape sequence reaches the terminal.
    process.stderr.write(`${safeText(shown(err.message))}\n`);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(`Internal error: ${shown(e.message)}\n`);
  if (process.env.AXIS_DEBUG) process.stderr.write(`${e.stack ?? ''}\n`);
  else process.stderr.write('This is a bug in AXIS. Set AXIS_DEBUG=1 for the stack trace.\n');
  return 1;
}
