/**
 * repeated-call: the same tool called again with identical input — a retry after a failure, or a
 * repeat with nothing in between that could have changed its answer. Reports patterns for the result
 * and as hints for the necessity judge; it sets no audit value (docs/scoring.md#repeated-call).
 */
import { inputSummary } from '../sparse-index.js';
import type { ClassifiedInteraction, Pattern, ToolKind } from '../types.js';
import type { Signal } from './signal.js';

/** Kinds of call that cannot change what a later identical call returns. */
const READ_ONLY: ReadonlySet<ToolKind | undefined> = new Set<ToolKind | undefined>([
  'read',
  'search',
  'fetch',
  'discovery',
]);

interface Seen {
  first: ClassifiedInteraction;
  last: ClassifiedInteraction;
  /** State changes counted after the last occurrence was made. */
  changesAfterLast: number;
  retries: number[];
  repeats: number[];
}

export const repeatedCall: Signal = {
  meta: {
    id: 'repeated-call',
    title: 'No repeated calls',
    failureTitle: 'Identical calls repeated',
    description:
      'Finds tool calls repeated with identical input: retries after a failure, and repeats with no ' +
      'state-changing call in between. Reported as patterns; the necessity judge decides what was waste.',
    field: null,
  },
  evaluate(interactions) {
    const seen = new Map<string, Seen>();
    let changes = 0;
    for (const ix of interactions) {
      if (ix.type !== 'tool' || !ix.tool || ix.tool.name === '') continue;
      const key = callKey(ix);
      const prev = key === undefined ? undefined : seen.get(key);
      if (prev) {
        if (prev.last.outcome === 'error') prev.retries.push(ix.id);
        else if (prev.changesAfterLast === changes) prev.repeats.push(ix.id);
        prev.last = ix;
      }
      if (!READ_ONLY.has(ix.toolKind)) changes++;
      if (prev) prev.changesAfterLast = changes;
      else if (key !== undefined)
        seen.set(key, { first: ix, last: ix, changesAfterLast: changes, retries: [], repeats: [] });
    }
    const patterns: Pattern[] = [];
    for (const s of seen.values()) {
      // Most calls are never repeated: their label is not built.
      if (s.retries.length === 0 && s.repeats.length === 0) continue;
      const label = `${s.first.tool!.name}(${inputSummary(s.first.tool!.input, 40)})`;
      if (s.retries.length > 0) {
        const stillFailing = s.last.outcome === 'error';
        patterns.push({
          kind: 'retry',
          description: `${label} failed and was retried unchanged ${times(s.retries.length)}${stillFailing ? ', still failing' : ''}`,
          interactionIds: [s.first.id, ...s.retries],
          severity: stillFailing ? 'high' : 'medium',
          source: 'signal',
        });
      }
      if (s.repeats.length > 0)
        patterns.push({
          kind: 'redundancy',
          description: `${label} repeated with identical input ${times(s.repeats.length)} with nothing in between that could change its result`,
          interactionIds: [s.first.id, ...s.repeats],
          severity: s.repeats.length >= 2 ? 'medium' : 'low',
          source: 'signal',
        });
    }
    patterns.sort((a, b) => a.interactionIds[0]! - b.interactionIds[0]!);
    return { values: [], patterns };
  },
};

/** Null: the input cannot be serialized (a cycle, a BigInt). */
const callKeys = new WeakMap<ClassifiedInteraction, string | null>();

/**
 * Tool and input as one string. Kept per interaction: repeatedCall and identicalRepeats both ask, and
 * serializing every input twice was a quarter of the signals' time on a long run.
 */
function callKey(ix: ClassifiedInteraction): string | undefined {
  let key = callKeys.get(ix);
  if (key === undefined) {
    try {
      key = `${ix.tool!.name.toLowerCase()}\u0000${JSON.stringify(ix.tool!.input) ?? ''}`;
    } catch {
      key = null;
    }
    callKeys.set(ix, key);
  }
  return key ?? undefined;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

/** A call identical to an earlier one: same tool, same input, same outcome and result. */
export interface IdenticalRepeat {
  id: number;
  /** The first occurrence. */
  firstId: number;
}

/**
 * Calls that repeat an earlier one exactly — same tool, same input, same result — whatever came in
 * between: the identical result proves the call learned nothing new, so it was unnecessary whatever a
 * judge says. Writes and edits are left out (repeating one may be what changed the state).
 */
export function identicalRepeats(interactions: readonly ClassifiedInteraction[]): IdenticalRepeat[] {
  const cached = repeatsOf.get(interactions);
  if (cached) return cached;
  // Bucketed by call key: the very strings repeatedCall hashed, so no longer key is built and hashed per
  // call (that was most of this function on a long run). Within a call, the distinct results so far, told
  // apart by outcome and a fingerprint before they are compared whole; a fingerprint is taken only once a
  // call repeats. Keys never copy a result (a long run's outputs would double the memory scoring needs).
  const byCall = new Map<string, FirstResult[]>();
  const out: IdenticalRepeat[] = [];
  for (const ix of interactions) {
    if (ix.type !== 'tool' || !ix.tool || ix.tool.name === '' || ix.toolKind === 'write') continue;
    if (ix.outcome === 'no_result') continue;
    const call = callKey(ix);
    if (call === undefined) continue;
    const firsts = byCall.get(call);
    if (!firsts) {
      byCall.set(call, [{ ix, print: undefined }]);
      continue;
    }
    const print = fingerprint(ix.tool);
    let same: ClassifiedInteraction | undefined;
    for (let k = 0; k < firsts.length && !same; k++) {
      const f = firsts[k]!;
      f.print ??= fingerprint(f.ix.tool!);
      if (f.ix.outcome === ix.outcome && f.print === print && sameResult(f.ix.tool!, ix.tool)) same = f.ix;
    }
    if (same) out.push({ id: ix.id, firstId: same.id });
    else firsts.push({ ix, print });
  }
  repeatsOf.set(interactions, out);
  return out;
}

/** A call's first interaction with a given result; `print` is its fingerprint once one was needed. */
interface FirstResult {
  ix: ClassifiedInteraction;
  print: string | undefined;
}

type ToolRecord = NonNullable<ClassifiedInteraction['tool']>;
const repeatsOf = new WeakMap<readonly ClassifiedInteraction[], IdenticalRepeat[]>();

/**
 * Length, head and tail of the result text (output, NUL, extra outputs joined by NUL): equal results
 * share it. Without extra outputs it is taken from the output without building the text.
 */
function fingerprint(t: ToolRecord): string {
  const o = t.output ?? '';
  if ((t.extraOutputs ?? []).length > 0) {
    const text = resultText(t);
    return `${text.length}\u0000${text.slice(0, 48)}\u0000${text.slice(-48)}`;
  }
  const head = o.length >= 48 ? o.slice(0, 48) : `${o}\u0000`;
  const tail = `${o.length >= 47 ? o.slice(-47) : o}\u0000`;
  return `${o.length + 1}\u0000${head}\u0000${tail}`;
}

function resultText(t: ToolRecord): string {
  return `${t.output ?? ''}\u0000${(t.extraOutputs ?? []).join('\u0000')}`;
}

/** The same outputs, as many of them (one output is not the same result as it and an empty second one). */
function sameResult(a: ToolRecord, b: ToolRecord): boolean {
  const extras = (a.extraOutputs ?? []).length;
  if (extras !== (b.extraOutputs ?? []).length) return false;
  if (extras === 0) return (a.output ?? '') === (b.output ?? '');
  return resultText(a) === resultText(b);
}

/**
 * Upper bound on run-level necessity from identical repeats: the share of the run's interactions that
 * were not such repeats. Null when there are none.
 */
export function necessityBound(
  interactions: readonly ClassifiedInteraction[],
): { bound: number; redundantIds: number[]; rationale: string } | null {
  const repeats = identicalRepeats(interactions);
  if (repeats.length === 0 || interactions.length === 0) return null;
  const n = interactions.length;
  const ids = repeats.map((r) => r.id);
  const groups = new Map<number, number[]>();
  for (const r of repeats) groups.set(r.firstId, [...(groups.get(r.firstId) ?? []), r.id]);
  const parts = [...groups].map(([f, rs]) => `#${f} repeated ${times(rs.length)} with the same result`);
  return {
    bound: (n - ids.length) / n,
    redundantIds: ids,
    rationale: `${ids.length} of ${n} interactions repeat an earlier call exactly (${parts.join('; ')}): at most ${n - ids.length}/${n} were needed`,
  };
}
