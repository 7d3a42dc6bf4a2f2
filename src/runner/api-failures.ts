/**
 * Watches one agent's provider calls while it runs. Every failed call the CLI reports (Claude `api_retry`,
 * Codex "Reconnecting…", Gemini "Attempt N failed") extends a streak that any sign of an answer ends.
 * A streak longer than `settings.limits.api_failures` stops the job with the API cause, so a bad key or a
 * dead network costs minutes, not the whole scenario time limit.
 */
import {
  apiFailureCause,
  noticeFormatFor,
  stderrNotice,
  stdoutNotice,
  type ApiFailureNotice,
  type ApiNotice,
} from '../transcript/api-notices.js';
import { apiFailureStop, type Stop } from './limits.js';

export interface ApiRetryInfo {
  /** Failed calls in the current streak. */
  failures: number;
  /** The CLI's own retry counter when it reports one, else `failures`. */
  attempt: number;
  maxRetries?: number;
  httpStatus?: number;
  /** "API rejected the key (401) after 3 retries". */
  cause: string;
}

export interface ApiFailureWatchOptions {
  /** Adapter name (`claude-code`, `codex`, …): which output dialect to read. */
  adapter: string;
  /** Minutes of consecutive failures before the job is stopped; undefined never stops. */
  limitMinutes?: number;
  onRetry: (info: ApiRetryInfo) => void;
  onLimit: (stop: Stop) => void;
}

export class ApiFailureWatch {
  private readonly format;
  private failures = 0;
  private last: ApiFailureNotice | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ApiFailureWatchOptions) {
    this.format = noticeFormatFor(opts.adapter);
  }

  stdout(line: string): void {
    if (this.format === 'none') return;
    const notice = stdoutNotice(this.format, line);
    if (notice) this.note(notice);
  }

  stderr(chunk: string): void {
    const notice = stderrNotice(this.format, chunk);
    if (notice) this.note(notice);
  }

  /** The streak's cause while the agent is still failing, for a job something else stopped. */
  get activeCause(): string | undefined {
    return this.last ? this.cause(this.last) : undefined;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private note(notice: ApiNotice): void {
    if (notice.kind === 'progress') {
      this.failures = 0;
      this.last = undefined;
      this.dispose();
      return;
    }
    this.failures++;
    this.last = notice;
    this.opts.onRetry({
      failures: this.failures,
      attempt: notice.attempt ?? this.failures,
      ...(notice.maxRetries !== undefined ? { maxRetries: notice.maxRetries } : {}),
      ...(notice.httpStatus !== undefined ? { httpStatus: notice.httpStatus } : {}),
      cause: this.cause(notice),
    });
    const minutes = this.opts.limitMinutes;
    if (this.timer || minutes === undefined) return;
    this.timer = setTimeout(() => {
      const last = this.last;
      if (last) this.opts.onLimit(apiFailureStop(this.cause(last), minutes, last.errorClass));
    }, minutes * 60_000);
    this.timer.unref?.();
  }

  private cause(notice: ApiFailureNotice): string {
    return apiFailureCause(notice, notice.attempt ?? this.failures);
  }
}
