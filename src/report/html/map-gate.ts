/** The CI gate's verdict for the page, in the words `axis reports <id>` prints (src/report/format.ts). */
import { failureLines, gateLine, type RunVerdict } from '../verdict.js';
import type { HtmlGate } from './model.js';

/** Absent without a verdict (an old report, a run still going): the page shows no gate then. */
export function toHtmlGate(v: RunVerdict | undefined): { gate?: HtmlGate } {
  if (!v) return {};
  // The terminal indents the failures under the Gate line; the page lists them instead.
  return { gate: { pass: v.pass, line: gateLine(v), failures: failureLines(v).map((l) => l.trimStart()) } };
}
