/**
 * Notes in the page: the markdown setup and teardown scripts and run hooks write to $AXIS_OUTPUT, as
 * sanitized HTML. The renderer (renderNotesMarkdown, markdown.ts) is passed in rather than imported:
 * marked costs about 7 ms to load, so the report writer loads it only for a report that has notes
 * (write.ts), and most reports have none.
 */
import { redact } from '../../scoring/index.js';
import type { ManifestInput, RunInput } from './map-input.js';
import type { HtmlReportData, HtmlRun } from './model.js';

/** Markdown in, sanitized HTML out. */
export type NotesRenderer = (markdown: string) => string;

const hasText = (notes: string | null | undefined): notes is string => !!notes?.trim();

/** The renderer, which a caller with notes to show must have given. */
function needed(render: NotesRenderer | undefined): NotesRenderer {
  if (!render) throw new Error('the report has notes, but no notes renderer was given');
  return render;
}

export function runHasNotes(input: RunInput): boolean {
  return hasText(input.setupNotes) || hasText(input.teardownNotes);
}

export function hooksHaveNotes(hooks: ManifestInput['hooks']): boolean {
  return hasText(hooks?.beforeAll?.notes) || hasText(hooks?.afterAll?.notes);
}

export function runNotes(input: RunInput, render: NotesRenderer | undefined): HtmlRun['notes'] {
  const html = (notes: string) => needed(render)(redact(notes));
  return {
    ...(hasText(input.setupNotes) ? { setupHtml: html(input.setupNotes) } : {}),
    ...(hasText(input.teardownNotes) ? { teardownHtml: html(input.teardownNotes) } : {}),
  };
}

/** The run hooks' notes, through the same markdown and sanitizer as a run's setup notes. */
export function hookNotes(
  hooks: ManifestInput['hooks'],
  render: NotesRenderer | undefined,
): Pick<HtmlReportData['report'], 'notes'> {
  const html = (notes: string | undefined) => (hasText(notes) ? needed(render)(redact(notes)) : undefined);
  const beforeAllHtml = html(hooks?.beforeAll?.notes);
  const afterAllHtml = html(hooks?.afterAll?.notes);
  if (!beforeAllHtml && !afterAllHtml) return {};
  return {
    notes: { ...(beforeAllHtml ? { beforeAllHtml } : {}), ...(afterAllHtml ? { afterAllHtml } : {}) },
  };
}
