import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailureWatch, type ApiRetryInfo } from '../../../src/runner/api-failures.js';
import { withApiCause } from '../../../src/runner/job-agent.js';
import { stopOf } from '../../../src/runner/limits.js';
import {
  apiFailureCause,
  stderrNotice,
  stdoutNotice,
  type ApiFailureNotice,
} from '../../../src/transcript/api-notices.js';

const SAMPLES = join(import.meta.dirname, '../../fixtures/agent-cli-samples');
const lines = (file: string) => readFileSync(join(SAMPLES, file), 'utf8').split('\n').filter(Boolean);

describe('provider-call notices from real CLI output', () => {
  it('Claude Code api_retry with HTTP 401 is an auth failure with its attempt counter', () => {
    const [first] = lines('claude-stream-api-retry-401.ndjson');
    expect(stdoutNotice('claude', first!)).toEqual({
      kind: 'failure',
      errorClass: 'auth',
      httpStatus: 401,
      detail: 'authentication_failed',
      attempt: 1,
      maxRetries: 10,
    });
  });

  it('Claude Code api_retry without a status (connection refused) is a network failure', () => {
    const [, second] = lines('claude-stream-api-retry-refused.ndjson');
    expect(stdoutNotice('claude', second!)).toMatchObject({
      kind: 'failure',
      errorClass: 'network',
      attempt: 2,
    });
    expect(stdoutNotice('claude', second!)).not.toHaveProperty('httpStatus');
  });

  it("Claude's synthetic API-error message is not progress; a real assistant message is", () => {
    const all = lines('claude-stream-http500.ndjson');
    const synthetic = all.find((l) => l.includes('"<synthetic>"'))!;
    expect(stdoutNotice('claude', synthetic)).toBeUndefined();
    const real = lines('claude-stream.ndjson').find((l) => l.startsWith('{"type":"assistant"'))!;
    expect(stdoutNotice('claude', real)).toEqual({ kind: 'progress' });
  });

  it('Codex "Reconnecting… n/m" is a retry; its final error is not counted twice', () => {
    const all = lines('codex-exec-http500.ndjson');
    const notices = all.map((l) => stdoutNotice('codex', l)).filter((n) => n?.kind === 'failure');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ attempt: 1, maxRetries: 1 });
  });

  it('Gemini retries are read from stderr', () => {
    expect(
      stderrNotice('gemini', 'Attempt 2 failed with status 429. Retrying with backoff...\n'),
    ).toMatchObject({
      errorClass: 'rate_limit',
      httpStatus: 429,
      attempt: 2,
    });
    expect(stderrNotice('gemini', 'some other log line')).toBeUndefined();
    expect(stderrNotice('codex', 'Attempt 2 failed with status 429.')).toBeUndefined();
  });

  it('opencode APIError events carry the status', () => {
    const err = lines('opencode-run-http500.ndjson').find((l) => l.includes('"type":"error"'))!;
    expect(stdoutNotice('opencode', err)).toMatchObject({ errorClass: 'api_error', httpStatus: 500 });
  });
});

describe('apiFailureCause', () => {
  const n = (x: Partial<ApiFailureNotice>): ApiFailureNotice => ({
    kind: 'failure',
    errorClass: 'api_error',
    ...x,
  });
  it.each([
    [n({ errorClass: 'auth', httpStatus: 401 }), 10, 'API rejected the key (401) after 10 retries'],
    [n({ errorClass: 'network' }), 1, 'API unreachable (no response) after 1 retry'],
    [n({ httpStatus: 503 }), 3, 'API server error (503) after 3 retries'],
    [n({ errorClass: 'rate_limit', httpStatus: 429 }), 0, 'API rate limit hit (429)'],
  ])('%j × %i → %s', (notice, retries, text) => {
    expect(apiFailureCause(notice, retries)).toBe(text);
  });
});

describe('ApiFailureWatch', () => {
  afterEach(() => vi.useRealTimers());
  const retry401 = lines('claude-stream-api-retry-401.ndjson');

  it('stops the job with the API cause once failures last longer than the limit', () => {
    vi.useFakeTimers();
    const retries: ApiRetryInfo[] = [];
    const stops: unknown[] = [];
    const watch = new ApiFailureWatch({
      adapter: 'claude-code',
      limitMinutes: 1,
      onRetry: (r) => retries.push(r),
      onLimit: (s) => stops.push(s),
    });
    watch.stdout(retry401[0]!);
    vi.advanceTimersByTime(30_000);
    watch.stdout(retry401[1]!);
    expect(stops).toHaveLength(0);
    vi.advanceTimersByTime(30_001);
    expect(retries.map((r) => r.cause)).toEqual([
      'API rejected the key (401) after 1 retry',
      'API rejected the key (401) after 2 retries',
    ]);
    const stop = stopOf(stops[0]);
    expect(stop?.status).toBe('failed');
    expect(stop?.errorClass).toBe('auth');
    expect(stop?.message).toBe(
      'API rejected the key (401) after 2 retries: stopped after 1m of failing provider calls (settings.limits.api_failures)',
    );
  });

  it('an answer from the provider ends the streak and the clock', () => {
    vi.useFakeTimers();
    const stops: unknown[] = [];
    const watch = new ApiFailureWatch({
      adapter: 'claude-code',
      limitMinutes: 1,
      onRetry: () => {},
      onLimit: (s) => stops.push(s),
    });
    watch.stdout(retry401[0]!);
    vi.advanceTimersByTime(50_000);
    watch.stdout(lines('claude-stream.ndjson').find((l) => l.startsWith('{"type":"assistant"'))!);
    expect(watch.activeCause).toBeUndefined();
    vi.advanceTimersByTime(120_000);
    expect(stops).toHaveLength(0);
  });

  it('a job stopped by another limit while retrying names the API cause', () => {
    expect(
      withApiCause(
        { status: 'timeout', reason: 'Scenario time limit reached (5m)' },
        'API rejected the key (401) after 10 retries',
      ),
    ).toEqual({
      status: 'timeout',
      reason:
        'Scenario time limit reached (5m) while the agent was retrying: API rejected the key (401) after 10 retries',
    });
    expect(withApiCause({ status: 'completed' }, 'x')).toEqual({ status: 'completed' });
  });
});
