/** The self-contained HTML report: view-model, mapper from report.json, renderer. */
import type { Trend } from '../history.js';
import { toHtmlReportData as mapReport, type ManifestInput, type MapOptions, type RunInput } from './map.js';
import { renderNotesMarkdown } from './markdown.js';
import type { HtmlReportData } from './model.js';

export * from './model.js';
export { MAP_DEFAULTS } from './map.js';

/**
 * report.json + per-run detail files → the HTML view-model, notes rendered as sanitized markdown.
 * `details[i]` holds the runs of `manifest.results[i]` in run order.
 */
export function toHtmlReportData(
  manifest: ManifestInput,
  details: readonly (readonly RunInput[] | undefined)[] = [],
  options: MapOptions = {},
  trend?: Trend,
): HtmlReportData {
  return mapReport(manifest, details, options, trend, renderNotesMarkdown);
}
export type { ArtifactInput, ManifestInput, MapOptions, PairInput, RunInput } from './map.js';
export { writeReportHtml, readReportInputs } from './write.js';
export { renderReportHtml, encodeReportData, decodeReportData, DATA_ELEMENT_ID } from './render.js';
export { renderNotesMarkdown } from './markdown.js';
export { sanitizeHtml } from './sanitize.js';
export { computeInsights, INSIGHT_THRESHOLD } from './insights.js';
