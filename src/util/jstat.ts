/**
 * jstat, required on first use: loading it cost about 20 ms of every start, and most commands never
 * need it. jstat ships no types; require() keeps its typing local instead of declaring the module
 * globally. The two distributions AXIS uses: the calibration curve and the t-test.
 */
import { createRequire } from 'node:module';

export interface JStat {
  normal: { cdf(x: number, mean: number, sd: number): number };
  studentt: { cdf(x: number, dof: number): number };
}

let loaded: JStat | undefined;

export function jStat(): JStat {
  loaded ??= (createRequire(import.meta.url)('jstat') as { jStat: JStat }).jStat;
  return loaded;
}
