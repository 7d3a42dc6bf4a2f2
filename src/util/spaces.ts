/**
 * `s.replace(/\s+/g, ' ')`, faster on ordinary text: a lone plain space would be replaced by itself, so
 * only runs of two or more whitespace characters and single other whitespace (a tab, a newline) are
 * replaced. A page label of a long run's every interaction went through the plain form (8,700 labels,
 * a replace per word gap); `test/unit/util/spaces.test.ts` checks both agree.
 */
const RUNS = /\s{2,}|[^\S ]/g;
const ANY = /\s{2,}|[^\S ]/;

export function collapseSpaces(s: string): string {
  return ANY.test(s) ? s.replace(RUNS, ' ') : s;
}
