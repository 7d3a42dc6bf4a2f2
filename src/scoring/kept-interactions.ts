/**
 * The classified interactions a scoring pass built, kept for report.html of the same run so it does not
 * group and classify a long transcript a second time (8,800 interactions: about 0.1 s and their garbage).
 * Keyed by the events array scored: the scrubber gives the stored result the very same scrubbed array,
 * so a report built from that result finds them; any other array (read back from disk, grown since)
 * finds nothing and is recomputed, exactly as before. Grouping depends only on the events and the two
 * times, checked here with the array's length; the page overrides the categories with the stored records either way.
 */
import type { TranscriptEvent } from '../transcript/model.js';
import type { ClassifiedInteraction } from './types.js';

/** Shorter runs are recomputed: cheap, and nothing is held in memory for each of a thousand jobs. */
export const KEEP_MIN_INTERACTIONS = 256;

interface Kept {
  length: number;
  startedAt: number | undefined;
  endedAt: number | undefined;
  interactions: ClassifiedInteraction[];
}

const kept = new WeakMap<readonly TranscriptEvent[], Kept>();

interface Timed {
  events: readonly TranscriptEvent[];
  startedAt?: number | undefined;
  endedAt?: number | undefined;
}

export function keepInteractions(t: Timed, interactions: ClassifiedInteraction[]): void {
  if (interactions.length < KEEP_MIN_INTERACTIONS) return;
  kept.set(t.events, { length: t.events.length, startedAt: t.startedAt, endedAt: t.endedAt, interactions });
}

/** The kept interactions of exactly this events array and times, handed out once (the caller may change them). */
export function takeInteractions(t: Timed): ClassifiedInteraction[] | undefined {
  const k = kept.get(t.events);
  if (!k) return undefined;
  kept.delete(t.events);
  const same = k.length === t.events.length && k.startedAt === t.startedAt && k.endedAt === t.endedAt;
  return same ? k.interactions : undefined;
}
