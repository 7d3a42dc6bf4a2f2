import { safeText } from '../report/format.js';
import { errorDocument } from '../util/error-document.js';
import { AxisError } from '../util/errors.js';

type CommandModule = { default: (...args: never[]) => Promise<number | void> };

/**
 * Wraps a lazily imported command. User errors (AxisError) print their message and exit with their
 * code; anything else is an AXIS bug and says so, with the stack only under AXIS_DEBUG. With `--json`
 * the error is also printed as `{ "error": { … } }` on stdout, so stdout always holds one document.
 */
export function runAction(load: () => Promise<CommandModule>) {
  return async (...args: unknown[]): Promise<void> => {
    try {
      const mod = await load();
      const code = await (mod.default as (...a: unknown[]) => Promise<number | void>)(...args);
      if (typeof code === 'number') process.exitCode = code;
    } catch (err) {
      process.exitCode = reportError(err);
      if (wantsJson(args) && !(err instanceof AxisError && err.documentPrinted))
        process.stdout.write(`${JSON.stringify(errorDocument(err, process.exitCode), null, 2)}\n`);
    }
  };
}

/** Commander passes (...positionals, options, command): true when the options hold `json: true`. */
function wantsJson(args: readonly unknown[]): boolean {
  const opts = args[args.length - 2];
  return typeof opts === 'object' && opts !== null && (opts as { json?: unknown }).json === true;
}

/**
 * A usage error commander has already printed on stderr: with `--json`, stdout still gets its one
 * `{ "error": … }` document (kind `usage`, exit 2).
 */
export function usageError(message: string, json: boolean): void {
  if (json) {
    const doc = errorDocument(new AxisError(message.replace(/^error: /, ''), { exitCode: 2 }), 2);
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
}

export function reportError(err: unknown): number {
  if (err instanceof AxisError) {
    // A message can quote a script's output (a failed beforeAll): no escape sequence reaches the terminal.
    process.stderr.write(`${safeText(err.message)}\n`);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(`Internal error: ${e.message}\n`);
  if (process.env.AXIS_DEBUG) process.stderr.write(`${e.stack ?? ''}\n`);
  else process.stderr.write('This is a bug in AXIS. Set AXIS_DEBUG=1 for the stack trace.\n');
  return 1;
}
