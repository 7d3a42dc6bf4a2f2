/**
 * `1234567` → `1,234,567`. One formatter built once: `Number.prototype.toLocaleString` builds a new
 * ICU formatter on every call, which showed up in profiles of runs with many jobs.
 */
let count: Intl.NumberFormat | undefined;

export function formatCount(n: number): string {
  count ??= new Intl.NumberFormat('en-US'); // built on first use: ICU start-up is not free
  return count.format(n);
}
