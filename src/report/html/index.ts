/** The self-contained HTML report: view-model, mapper from report.json, renderer. */
export * from './model.js';
export { toHtmlReportData, MAP_DEFAULTS } from './map.js';
export type { ArtifactInput, ManifestInput, MapOptions, PairInput, RunInput } from './map.js';
export { writeReportHtml, readReportInputs } from './write.js';
export { renderReportHtml, encodeReportData, decodeReportData, DATA_ELEMENT_ID } from './render.js';
export { renderNotesMarkdown } from './markdown.js';
export { sanitizeHtml } from './sanitize.js';
export { computeInsights, INSIGHT_THRESHOLD } from './insights.js';
