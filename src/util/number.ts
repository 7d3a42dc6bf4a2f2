/**
 * `1234567` → `1,234,567`. Integers are grouped by hand: the first `Intl.NumberFormat` of a process
 * loads ICU's locale data (20–40 ms, measured on a 200-job run's profile), and `toLocaleString` builds a
 * new formatter on every call. Anything else (fractions, huge values) goes to one formatter built on
 * first use.
 */
let count: Intl.NumberFormat | undefined;

export function formatCount(n: number): string {
  if (Number.isSafeInteger(n)) {
    const digits = String(Math.abs(n));
    const grouped = digits.length <= 3 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, ',');
    return n < 0 || Object.is(n, -0) ? `-${grouped}` : grouped;
  }
  count ??= new Intl.NumberFormat('en-US');
  return count.format(n);
}
