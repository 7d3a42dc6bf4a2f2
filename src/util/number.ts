/**
 * `1234567` → `1,234,567`. One formatter built once: `Number.prototype.toLocaleString` builds a new
 * ICU formatter on every call, which showed up in profiles of runs with many jobs.
 */
const COUNT = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return COUNT.format(n);
}
