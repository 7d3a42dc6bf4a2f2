/**
 * Regular expressions against untrusted text (the agent's final answer, workspace files) off the main
 * thread, with a hard time limit. A catastrophic pattern (`^(a+)+$` against `aaaa…b`) backtracks for
 * minutes inside one `exec` call, which no timer or signal handler can interrupt on the thread that runs
 * it; in a worker it is simply terminated. (No safe-regex engine here: RE2 needs a native addon and rejects
 * lookarounds and backreferences that valid scenarios use.)
 */
import { Worker } from 'node:worker_threads';
import { compileRegex } from '../../config/schema-helpers.js';

/** Longest a single match may run. */
export const REGEX_TIMEOUT_MS = 5_000;

export type RegexOutcome =
  | { kind: 'match'; index: number; length: number }
  | { kind: 'no_match' }
  | { kind: 'timeout'; ms: number }
  | { kind: 'stopped'; reason: string };

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { source, flags, text } = workerData;
const m = new RegExp(source, flags).exec(text);
parentPort.postMessage(m ? { index: m.index, length: m[0].length } : null);
`;

export function matchInWorker(
  pattern: string,
  text: string,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<RegexOutcome> {
  const re = compileRegex(pattern); // throws on an invalid pattern, like the check always did
  const ms = Math.max(1, opts.timeoutMs ?? REGEX_TIMEOUT_MS);
  const { signal } = opts;
  if (signal?.aborted) return Promise.resolve({ kind: 'stopped', reason: reasonText(signal.reason) });
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      eval: true,
      // All flags kept: the worker's RegExp is fresh (lastIndex 0), so g changes nothing and y anchors.
      workerData: { source: re.source, flags: re.flags, text },
    });
    let settled = false;
    const done = (outcome: RegexOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const onAbort = (): void => done({ kind: 'stopped', reason: reasonText(signal?.reason) });
    const timer = setTimeout(() => done({ kind: 'timeout', ms }), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (m: { index: number; length: number } | null) =>
      done(m ? { kind: 'match', index: m.index, length: m.length } : { kind: 'no_match' }),
    );
    worker.once('error', (err) => done({ kind: 'stopped', reason: err.message }));
    worker.once('exit', () => done({ kind: 'stopped', reason: 'the regex worker exited' }));
  });
}

/** Evidence for a pattern that ran out of time or was stopped. */
export function unfinishedEvidence(what: string, pattern: string, outcome: RegexOutcome): string {
  if (outcome.kind === 'timeout')
    return `matching ${pattern} against ${what} did not finish within ${outcome.ms / 1000} s (catastrophic backtracking?); the check fails`;
  return `matching ${pattern} against ${what} was stopped: ${outcome.kind === 'stopped' ? outcome.reason : ''}`;
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' && reason ? reason : 'cancelled';
}
