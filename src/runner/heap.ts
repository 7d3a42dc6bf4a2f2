/**
 * V8 heap sizing for runs of many jobs. Left alone, V8 grows the young generation to its 16 MB semi-spaces
 * and lets the old generation fill to about three times the live data before a full collection, so RSS
 * grows ~65 KB per job while the live data grows 7–10 KB. Both flags below are read by V8 each time it
 * resizes (`--max-semi-space-size` is read only at start-up), so the CLI sets them without re-executing
 * Node. They must be set before the config loads: a young generation that has grown never shrinks back.
 * One that Node was started with (`node --heap-growing-percent=…`; V8 refuses both in NODE_OPTIONS) is
 * the user's and is left alone (setV8Flag).
 */
import { setV8Flag } from '../util/v8-flags.js';

/**
 * Below this many jobs V8's defaults come back once the plan is known: a short run's memory is its
 * start-up, and one huge transcript scores ~35% slower (more collections) under the compact settings.
 */
export const COMPACT_HEAP_MIN_JOBS = 50;

/** No semi-space growth, and the old generation limited to 1.5× the live data after each full GC. */
const COMPACT = { 'semi-space-growth-factor': 1, 'heap-growing-percent': 50 };
/** V8's own defaults for the same two flags (0: V8 picks the growing factor itself). */
const DEFAULTS = { 'semi-space-growth-factor': 2, 'heap-growing-percent': 0 };
type HeapFlag = keyof typeof DEFAULTS;

/** Compact heap settings for this process, from now on (the CLI's `run`, before anything else). */
export function compactHeap(): void {
  for (const [name, value] of Object.entries(COMPACT)) setV8Flag(name, value, DEFAULTS[name as HeapFlag]);
}

/** Once the plan is known: V8's defaults back for a run of fewer jobs; returns whether compact stays. */
export function heapForRun(jobs: number): boolean {
  if (jobs >= COMPACT_HEAP_MIN_JOBS) return true;
  for (const [name, value] of Object.entries(DEFAULTS)) setV8Flag(name, value, value);
  return false;
}
