/**
 * When V8 optimizes AXIS's code. V8 sends a function to its optimizing compiler (TurboFan, on a
 * background thread) once it has run about 66 KB of bytecode (`--interrupt-budget=67584`). An `axis run`
 * is a few hundred short passes over a lot of code (the job pipeline, the scoring, the writers), so
 * nearly every function of it reached that budget and was compiled, much of it for a handful of later
 * calls: the compiler threads took about 13% of a scored 200-job run's CPU, and 0.4 s of the 20 MB run's
 * 2.8 s. With a budget nine times larger only code that keeps running gets compiled: in interleaved
 * runs the process's CPU fell 8% (scored 200 jobs), 6% (`--no-score`) and 14% (the 20 MB run), its wall
 * time unchanged or lower (docs/performance.md, "When V8 optimizes"). Like heap.ts, a flag V8 reads as
 * it goes, set by the CLI for its own process only; not when Node was started with a budget of its own.
 */
import { givenAtStartup, setV8Flag } from '../util/v8-flags.js';

/** Bytecode a function runs before V8 considers optimizing it (V8's default: 67,584). */
export const INTERRUPT_BUDGET = 600_000;
const V8_DEFAULT_BUDGET = 67_584;

/** Raises V8's tier-up budget for this process from now on; false when Node was given one already. */
export function lateTierUp(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  if (givenAtStartup('interrupt-budget', execArgv, nodeOptions)) return false;
  return setV8Flag('interrupt-budget', INTERRUPT_BUDGET, V8_DEFAULT_BUDGET);
}
