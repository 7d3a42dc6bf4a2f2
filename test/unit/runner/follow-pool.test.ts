import { describe, expect, it } from 'vitest';
import { followPool } from '../../../src/runner/job-state.js';

describe('followPool', () => {
  it("aborts the job with the pool's reason when the pool stops", () => {
    const pool = new AbortController();
    const job = new AbortController();
    followPool(pool.signal, job);
    expect(job.signal.aborted).toBe(false);
    pool.abort(new Error('run cancelled'));
    expect(job.signal.aborted).toBe(true);
    expect((job.signal.reason as Error).message).toBe('run cancelled');
  });

  it("keeps the job's own reason when the job stopped first", () => {
    const pool = new AbortController();
    const job = new AbortController();
    followPool(pool.signal, job);
    job.abort(new Error('token limit'));
    pool.abort(new Error('run cancelled'));
    expect((job.signal.reason as Error).message).toBe('token limit');
  });

  it('aborts at once when the pool already stopped', () => {
    const pool = new AbortController();
    pool.abort(new Error('already'));
    const job = new AbortController();
    followPool(pool.signal, job);
    expect((job.signal.reason as Error).message).toBe('already');
  });

  it('no longer follows once unlinked, and many jobs at once raise no leak warning', async () => {
    const pool = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const jobs = Array.from({ length: 50 }, () => new AbortController());
      const unlinks = jobs.map((j) => followPool(pool.signal, j));
      unlinks[0]!();
      await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
      pool.abort(new Error('stop'));
      expect(jobs[0]!.signal.aborted).toBe(false);
      expect(jobs.slice(1).every((j) => j.signal.aborted)).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
