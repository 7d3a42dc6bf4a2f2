/**
 * Deterministic goal checks (scenario `checks`), run after the agent and before teardown while the
 * workspace still exists. Each passes (10) or fails (0) with its evidence as the rationale; a check that
 * cannot run (bad path, missing command, refused connection) fails with the reason, it never throws.
 */
import type { Check, Criterion } from '../../config/types.js';
import { runCommandCheck } from './command.js';
import { excerpt, fileContains, fileExists, fileMatches } from './file.js';
import { httpCheck } from './http.js';
import { matchInWorker, REGEX_TIMEOUT_MS, unfinishedEvidence } from './regex.js';
import type { CheckContext, CheckOutcome, CheckVerdict } from './types.js';

export type { CheckContext, CheckOutcome, CheckVerdict } from './types.js';
export { locate } from './file.js';
export { DEFAULT_RUN_TIMEOUT_MS } from './command.js';
export { DEFAULT_HTTP_TIMEOUT_MS } from './http.js';

/**
 * Runs the scenario's checks one after another (a `run` check may depend on the files another reads),
 * all within `ctx.budgetMs` when given: each check gets what is left of it, and once it is spent the
 * remaining checks fail saying so.
 */
export async function runChecks(criteria: readonly Criterion[], ctx: CheckContext): Promise<CheckOutcome[]> {
  const out: CheckOutcome[] = [];
  const spent = `the checks' time budget (${budgetText(ctx.budgetMs)}) is spent`;
  // The budget stops a check through the signal, whose reason becomes the check's evidence.
  const budget = ctx.budgetMs !== undefined ? new AbortController() : undefined;
  // Timers take at most 2^31-1 ms (a longer one fires at once).
  const timer = budget
    ? setTimeout(() => budget.abort(spent), Math.min(Math.max(1, ctx.budgetMs!), 2 ** 31 - 1))
    : undefined;
  const signal =
    budget && ctx.signal ? AbortSignal.any([ctx.signal, budget.signal]) : (budget?.signal ?? ctx.signal);
  const deadline = ctx.budgetMs !== undefined ? Date.now() + ctx.budgetMs : Infinity;
  try {
    for (const c of criteria)
      if (c.kind === 'check') out.push(await outcome(c, deadline, spent, { ...ctx, signal }));
  } finally {
    clearTimeout(timer);
  }
  return out;
}

async function outcome(
  c: Extract<Criterion, { kind: 'check' }>,
  deadline: number,
  spent: string,
  ctx: CheckContext,
): Promise<CheckOutcome> {
  const started = Date.now();
  const left = deadline - started;
  const verdict = left <= 0 ? { passed: false, evidence: `not run: ${spent}` } : await runCheck(c.check, ctx);
  return {
    index: c.index,
    label: c.label,
    weight: c.weight,
    kind: c.check.kind,
    passed: verdict.passed,
    score: verdict.passed ? 10 : 0,
    rationale: `${verdict.passed ? 'Passed' : 'Failed'}: ${verdict.evidence}`,
    durationMs: Date.now() - started,
  };
}

export async function runCheck(check: Check, ctx: CheckContext): Promise<CheckVerdict> {
  try {
    switch (check.kind) {
      case 'run':
        return await runCommandCheck({
          command: check.run,
          expectExit: check.expect_exit,
          cwd: ctx.workDir,
          env: ctx.env,
          ...(ctx.runTimeoutMs !== undefined ? { timeoutMs: ctx.runTimeoutMs } : {}),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          ...(ctx.space ? { space: ctx.space } : {}),
        });
      case 'file_exists':
        return await fileExists(ctx.workDir, check.file, check.exists);
      case 'file_contains':
        return await fileContains(ctx.workDir, check.file, check.contains);
      case 'file_matches':
        return await fileMatches(ctx.workDir, check.file, check.matches, regexOptions(ctx));
      case 'result_matches':
        return await resultMatches(ctx.finalAnswer, check.result_matches, regexOptions(ctx));
      case 'http':
        return await httpCheck({
          url: check.http.url,
          method: check.http.method,
          status: check.http.status,
          ...(check.http.contains !== undefined ? { contains: check.http.contains } : {}),
          ...(ctx.httpTimeoutMs !== undefined ? { timeoutMs: ctx.httpTimeoutMs } : {}),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
    }
  } catch (err) {
    return {
      passed: false,
      evidence: `the check could not run: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

function regexOptions(ctx: CheckContext): { timeoutMs: number; signal?: AbortSignal } {
  return { timeoutMs: REGEX_TIMEOUT_MS, ...(ctx.signal ? { signal: ctx.signal } : {}) };
}

function budgetText(ms: number | undefined): string {
  return ms === undefined ? 'none' : `${Number((ms / 1000).toFixed(1))} s`;
}

export async function resultMatches(
  answer: string | null,
  pattern: string,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<CheckVerdict> {
  if (answer === null || answer.trim() === '')
    return { passed: false, evidence: 'the agent gave no final answer' };
  const m = await matchInWorker(pattern, answer, opts);
  if (m.kind === 'timeout' || m.kind === 'stopped')
    return { passed: false, evidence: unfinishedEvidence('the final answer', pattern, m) };
  if (m.kind === 'no_match')
    return {
      passed: false,
      evidence: `the final answer (${answer.length} chars) does not match ${pattern}; it ends: ${JSON.stringify(
        answer.replace(/\s+/g, ' ').trim().slice(-160),
      )}`,
    };
  return {
    passed: true,
    evidence: `the final answer matches ${pattern}: ${excerpt(answer, m.index, m.length)}`,
  };
}
