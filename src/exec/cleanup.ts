import { killAll } from './groups.js';
import { removeAllTempDirsSync } from './workspace.js';

// SIGHUP: the terminal closed (an ssh session dropped); stopped as SIGTERM is, not killed outright.
export type InterruptSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

export interface InterruptHandlerOptions {
  /** The run's controller: aborted (reason `Run cancelled by SIGINT`) on the first signal. */
  controller: AbortController;
  /** Called after the first signal, e.g. to print "Stopping… press Ctrl-C again to force". */
  onFirst?: (signal: InterruptSignal) => void;
  /** Called on the second signal, before processes are killed and temp dirs removed. */
  onForce?: (signal: InterruptSignal) => void;
  /** Default `process.exit`; replaceable for tests. */
  exit?: (code: number) => void;
  /** Default all three. */
  signals?: readonly InterruptSignal[];
}

export const EXIT_CODES: Record<InterruptSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Installs the process-wide Ctrl-C behaviour. First SIGINT/SIGTERM/SIGHUP: abort the run's controller
 * (callers stop running jobs, keep finished results, mark the rest cancelled and still write
 * results). Second: kill every live process group, remove every registered temp dir, exit 130
 * (SIGINT), 143 (SIGTERM) or 129 (SIGHUP) at once. Returns a function that uninstalls the handlers.
 */
export function installInterruptHandler(opts: InterruptHandlerOptions): () => void {
  const signals = opts.signals ?? (['SIGINT', 'SIGTERM', 'SIGHUP'] as const);
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let count = 0;

  const handler = (signal: InterruptSignal): void => {
    count++;
    if (count === 1) {
      if (!opts.controller.signal.aborted) opts.controller.abort(new Error(`Run cancelled by ${signal}`));
      callSafely(() => opts.onFirst?.(signal));
      return;
    }
    callSafely(() => opts.onForce?.(signal));
    forceCleanup();
    exit(EXIT_CODES[signal]);
  };

  const listeners = signals.map((s) => {
    const listener = (): void => handler(s);
    process.on(s, listener);
    return [s, listener] as const;
  });
  let installed = true;
  return () => {
    if (!installed) return;
    installed = false;
    for (const [s, listener] of listeners) process.off(s, listener);
  };
}

/** Kills all live process groups (SIGKILL) and removes all registered temp dirs, synchronously. */
export function forceCleanup(): { killed: number; leftDirs: string[] } {
  const killed = killAll('SIGKILL');
  const leftDirs = removeAllTempDirsSync();
  return { killed, leftDirs };
}

function callSafely(fn: () => void): void {
  try {
    fn();
  } catch {
    // a message callback must not prevent the cleanup
  }
}
