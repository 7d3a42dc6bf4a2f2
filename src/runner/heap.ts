/**
 * V8 heap sizing for runs of many jobs. Left alone, V8 grows the young generation to its 16 MB semi-spaces
 * and lets the old generation fill to about three times the live data before a full collection, so RSS
 * grows ~65 KB per job while the live data grows 7–10 KB. Both flags below are read by V8 each time it
 * resizes (measured: `--max-semi-space-size` is read only at start-up, these two are not), so they can be
 * set once the plan is known, without re-executing Node.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * Below this many jobs the defaults stay: a short run's memory is its start-up, and a run of a few huge
 * transcripts scores ~35% slower (more collections) under the compact settings.
 */
export const COMPACT_HEAP_MIN_JOBS = 50;

/** Keeps the semi-spaces at their initial size and the old generation at 1.5× live data after each full GC. */
export const COMPACT_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=50'] as const;

/** Applies the compact flags to this process for a run of `jobs` jobs; returns whether it did. */
export function compactHeapForRun(jobs: number): boolean {
  if (jobs < COMPACT_HEAP_MIN_JOBS) return false;
  for (const flag of COMPACT_HEAP_FLAGS) setFlagsFromString(flag);
  return true;
}
