import { describe, expect, it } from 'vitest';
import { matchInWorker } from '../../../../src/scoring/checks/regex.js';

const EVIL = `${'a'.repeat(40)}b`;

describe('matchInWorker', () => {
  it('finds a match and its place, or says there is none', async () => {
    expect(await matchInWorker('\\b42\\b', 'total 42.')).toEqual({ kind: 'match', index: 6, length: 2 });
    expect(await matchInWorker('/READY/i', 'state: ready')).toMatchObject({ kind: 'match', index: 7 });
    expect(await matchInWorker('x', 'abc')).toEqual({ kind: 'no_match' });
  });

  it('keeps every flag the validator accepts: y anchors the match at the start, g changes nothing', async () => {
    expect(await matchInWorker('/b/y', 'ab')).toEqual({ kind: 'no_match' });
    expect(await matchInWorker('/a/y', 'ab')).toEqual({ kind: 'match', index: 0, length: 1 });
    expect(await matchInWorker('/b/g', 'abab')).toEqual({ kind: 'match', index: 1, length: 1 });
  });

  it('a catastrophic pattern is cut off at the limit while the main thread keeps running', async () => {
    let ticks = 0;
    const tick = setInterval(() => ticks++, 50);
    const started = Date.now();
    const out = await matchInWorker('^(a+)+$', EVIL, { timeoutMs: 800 });
    const took = Date.now() - started;
    clearInterval(tick);
    expect(out).toEqual({ kind: 'timeout', ms: 800 });
    expect(took).toBeLessThan(5000);
    // The event loop (timers, signal handlers) was never blocked while the worker backtracked.
    expect(ticks).toBeGreaterThanOrEqual(8);
  });

  it('an abort stops the match at once', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('Run cancelled by SIGTERM')), 200);
    const started = Date.now();
    const out = await matchInWorker('^(a+)+$', EVIL, { timeoutMs: 60_000, signal: ac.signal });
    expect(out).toEqual({ kind: 'stopped', reason: 'Run cancelled by SIGTERM' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
