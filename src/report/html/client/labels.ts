/**
 * Plain names for the parts of a dimension score, shared by the page, its insights (insights.ts) and
 * the terminal (report/format*.ts), so every view says the same words for the same number.
 */

/** Short names of the sub-dimensions and audit fields. */
export const PART_LABEL: Record<string, string> = {
  success: 'worked',
  speed: 'speed',
  weight: 'right-sized',
  relevance: 'on task',
  necessity: 'needed',
};

/** The question each part answers, for tooltips and sentences. */
export const PART_QUESTION: Record<string, string> = {
  success: 'did each interaction work?',
  speed: 'how fast was each interaction for its kind?',
  weight: 'was each interaction worth its cost in context and time?',
  relevance: 'did each interaction move the task forward?',
  necessity: 'were the interactions needed at all?',
};

/** Where an audit value came from, in words. */
export const SOURCE_LABEL: Record<string, string> = {
  signal: 'measured',
  judge: 'judged by a model',
  default: 'default',
};

export function partLabel(id: string): string {
  return PART_LABEL[id] ?? id;
}

/** A 0–1 value (an audit field, necessity, a weight) on the 0–100 scale every view prints: the page, its insights, the terminal. */
export function toHundred(v: number): number {
  return Math.round(v * 100);
}
