import { AxisError } from '../util/errors.js';

type CommandModule = { default: (...args: never[]) => Promise<number | void> };

/**
 * Wraps a lazily imported command. User errors (AxisError) print their message and exit with their
 * code; anything else is an AXIS bug and says so, with the stack only under AXIS_DEBUG.
 */
export function runAction(load: () => Promise<CommandModule>) {
  return async (...args: unknown[]): Promise<void> => {
    try {
      const mod = await load();
      const code = await (mod.default as (...a: unknown[]) => Promise<number | void>)(...args);
      if (typeof code === 'number') process.exitCode = code;
    } catch (err) {
      process.exitCode = reportError(err);
    }
  };
}

export function reportError(err: unknown): number {
  if (err instanceof AxisError) {
    process.stderr.write(`${err.message}\n`);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(`Internal error: ${e.message}\n`);
  if (process.env.AXIS_DEBUG) process.stderr.write(`${e.stack ?? ''}\n`);
  else process.stderr.write('This is a bug in AXIS. Set AXIS_DEBUG=1 for the stack trace.\n');
  return 1;
}
