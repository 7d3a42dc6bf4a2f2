/**
 * Welch's two-sample t-test and Cohen's d (docs/reports.md#statistical-significance). The t distribution
 * comes from jstat; the rest is the textbook formulas, a few lines each.
 */
import { jStat } from '../util/jstat.js';

export interface WelchResult {
  /** (mean(b) − mean(a)) / standard error: positive when b is higher. */
  t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  df: number;
  /** Two-sided p-value. */
  p: number;
  /** Cohen's d: (mean(b) − mean(a)) / pooled standard deviation. */
  d: number;
}

/** p below this is significant. */
export const ALPHA = 0.05;
/** |d| at or above this is a large effect (Cohen's convention). */
export const LARGE_EFFECT = 0.8;

export function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/** Sample variance (n − 1); 0 for fewer than two values. */
export function variance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1);
}

export function stdDev(values: readonly number[]): number {
  return Math.sqrt(variance(values));
}

/**
 * Welch's t-test of b against a (b − a), with Cohen's d. Each sample needs at least two values; two
 * constant samples give t = ±Infinity (p 0) when they differ and t = 0 (p 1) when they are equal.
 */
export function welchTest(a: readonly number[], b: readonly number[]): WelchResult {
  for (const [name, s] of [
    ['a', a],
    ['b', b],
  ] as const) {
    if (s.length < 2)
      throw new RangeError(`welchTest: sample ${name} needs at least 2 values, found ${s.length}`);
    if (s.some((v) => !Number.isFinite(v)))
      throw new RangeError(`welchTest: sample ${name} holds a value that is not a finite number`);
  }
  const [na, nb] = [a.length, b.length];
  const [va, vb] = [variance(a), variance(b)];
  const diff = mean(b) - mean(a);
  const [qa, qb] = [va / na, vb / nb];
  const se = Math.sqrt(qa + qb);
  const pooled = Math.sqrt(((na - 1) * va + (nb - 1) * vb) / (na + nb - 2));
  if (se === 0) {
    const inf = diff === 0 ? 0 : Math.sign(diff) * Infinity;
    return { t: inf, df: na + nb - 2, p: diff === 0 ? 1 : 0, d: inf };
  }
  const t = diff / se;
  const df = (qa + qb) ** 2 / (qa ** 2 / (na - 1) + qb ** 2 / (nb - 1));
  // 2·cdf(−|t|) rather than 2·(1 − cdf(|t|)): no cancellation for large t.
  const p = Math.min(1, 2 * jStat().studentt.cdf(-Math.abs(t), df));
  return { t, df, p, d: pooled === 0 ? Math.sign(diff) * Infinity : diff / pooled };
}

export type Direction = 'higher' | 'lower';
export type SignificanceLevel = 'large' | 'significant' | 'none';

export interface Significance extends WelchResult {
  level: SignificanceLevel;
  /** Which way the move goes for people, given the metric's direction; null when not significant. */
  verdict: 'improvement' | 'regression' | null;
  /** ● significant with a large effect, ◐ significant but smaller, ○ not significant. */
  marker: '●' | '◐' | '○';
  /** `large regression`, `improvement`, `not significant`, … */
  label: string;
}

/** Reads a test for people; `better` says which way is good for the metric (duration, tokens: lower). */
export function significance(test: WelchResult, better: Direction): Significance {
  const significant = test.p < ALPHA;
  const level: SignificanceLevel = !significant
    ? 'none'
    : Math.abs(test.d) >= LARGE_EFFECT
      ? 'large'
      : 'significant';
  const up = test.t > 0;
  const verdict = !significant ? null : up === (better === 'higher') ? 'improvement' : 'regression';
  const marker = level === 'large' ? '●' : level === 'significant' ? '◐' : '○';
  const label = verdict === null ? 'not significant' : level === 'large' ? `large ${verdict}` : verdict;
  return { ...test, level, verdict, marker, label };
}
