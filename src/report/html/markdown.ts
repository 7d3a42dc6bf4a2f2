/**
 * Notes markdown ($AXIS_OUTPUT of setup/teardown scripts) → safe HTML. `marked` renders on the server
 * side when the report is written; its output (raw HTML in the notes included) always goes through
 * the allowlist sanitizer, so the page only ever receives sanitized markup.
 */
import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize.js';

const marked = new Marked({ gfm: true, breaks: false, async: false });

export function renderNotesMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false });
  return sanitizeHtml(html);
}
