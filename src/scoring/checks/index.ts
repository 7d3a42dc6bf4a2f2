/**
 * Deterministic goal checks (scenario `checks`), run after the agent and before teardown while the
 * workspace still exists. Each passes (10) or fails (0) with its evidence as the rationale; a check that
 * cannot run (bad path, missing command, refused connection) fails with the reason, it never throws.
 */
import { compileRegex } from '../../config/schema-helpers.js';
import type { Check, Criterion } from '../../config/types.js';
import { runCommandCheck } from './command.js';
import { excerpt, fileContains, fileExists, fileMatches } from './file.js';
import { httpCheck } from './http.js';
import type { CheckContext, CheckOutcome, CheckVerdict } from './types.js';

export type { CheckContext, CheckOutcome, CheckVerdict } from './types.js';
export { locate } from './file.js';
export { DEFAULT_RUN_TIMEOUT_MS } from './command.js';
export { DEFAULT_HTTP_TIMEOUT_MS } from './http.js';

/** Runs the scenario's checks one after another (a `run` check may depend on the files another reads). */
export async function runChecks(criteria: readonly Criterion[], ctx: CheckContext): Promise<CheckOutcome[]> {
  const out: CheckOutcome[] = [];
  for (const c of criteria) {
    if (c.kind !== 'check') continue;
    const started = Date.now();
    const verdict = await runCheck(c.check, ctx);
    out.push({
      index: c.index,
      label: c.label,
      weight: c.weight,
      kind: c.check.kind,
      passed: verdict.passed,
      score: verdict.passed ? 10 : 0,
      rationale: `${verdict.passed ? 'Passed' : 'Failed'}: ${verdict.evidence}`,
      durationMs: Date.now() - started,
    });
  }
  return out;
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
        });
      case 'file_exists':
        return await fileExists(ctx.workDir, check.file, check.exists);
      case 'file_contains':
        return await fileContains(ctx.workDir, check.file, check.contains);
      case 'file_matches':
        return await fileMatches(ctx.workDir, check.file, check.matches);
      case 'result_matches':
        return resultMatches(ctx.finalAnswer, check.result_matches);
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

export function resultMatches(answer: string | null, pattern: string): CheckVerdict {
  if (answer === null || answer.trim() === '')
    return { passed: false, evidence: 'the agent gave no final answer' };
  const m = compileRegex(pattern).exec(answer);
  if (!m)
    return {
      passed: false,
      evidence: `the final answer (${answer.length} chars) does not match ${pattern}; it ends: ${JSON.stringify(
        answer.replace(/\s+/g, ' ').trim().slice(-160),
      )}`,
    };
  return {
    passed: true,
    evidence: `the final answer matches ${pattern}: ${excerpt(answer, m.index, m[0].length)}`,
  };
}
