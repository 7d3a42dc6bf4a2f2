/**
 * The detail blocks of judge prompts: the index lines a batch audits, and its interactions in detail,
 * failures first with the larger bounds, the rest within a budget.
 */
import { sparseLine } from '../sparse-index.js';
import type { ClassifiedInteraction } from '../types.js';
import type { TranscriptEvent } from '../../transcript/model.js';
import { bound, inputText, LIMITS, oneLine, quote, ranges } from './prompt-text.js';

/** What a judge prompt sees of a run. */
export interface RunView {
  scenarioKey: string;
  scenarioName: string;
  agentName: string;
  prompt: string;
  finalAnswer: string | null;
  interactions: readonly ClassifiedInteraction[];
  events: readonly TranscriptEvent[];
  sparseIndex: string;
  /** `completed · 42.1 s · 12,345 tokens (input …, output …)`. */
  stats: string;
}

const byIdOf = new WeakMap<readonly ClassifiedInteraction[], ReadonlyMap<number, ClassifiedInteraction>>();

/** The run's interactions by id, built once per run (a long run's batches each need it). */
export function interactionsById(run: RunView): ReadonlyMap<number, ClassifiedInteraction> {
  let map = byIdOf.get(run.interactions);
  if (!map) byIdOf.set(run.interactions, (map = new Map(run.interactions.map((ix) => [ix.id, ix]))));
  return map;
}

/**
 * The index's header lines (run name and counts) and the lines of the interactions in `scope`, in run
 * order, exactly as buildSparseIndex wrote them: its lines are taken from the run's index (one line per
 * interaction, none holds a newline), so a batch costs its own size, not a pass over the whole run.
 */
export function batchIndex(run: RunView, scope: ReadonlySet<number>): string {
  const { header, lines, position } = indexLinesOf(run);
  if (!lines) {
    const out = [header];
    for (const ix of run.interactions) if (scope.has(ix.id)) out.push(sparseLine(ix));
    return out.join('\n');
  }
  const at: number[] = [];
  for (const id of scope) {
    const k = position.get(id);
    if (k !== undefined) at.push(k);
  }
  at.sort((a, b) => a - b);
  const out = [header];
  for (const k of at) out.push(lines[k]!);
  return out.join('\n');
}

interface IndexLines {
  index: string;
  header: string;
  /** Line k is interaction k's; null when the index does not have one line per interaction (or ids repeat). */
  lines: string[] | null;
  position: ReadonlyMap<number, number>;
}

const linesCache = new WeakMap<readonly ClassifiedInteraction[], IndexLines>();

/** The run's index split into lines once per run (a long run's batches each need some of them). */
function indexLinesOf(run: RunView): IndexLines {
  let found = linesCache.get(run.interactions);
  if (found && found.index === run.sparseIndex) return found;
  const all = run.sparseIndex.replace(/\n$/, '').split('\n');
  const body = all.slice(2);
  const position = new Map<number, number>();
  run.interactions.forEach((ix, k) => position.set(ix.id, k));
  const exact = body.length === run.interactions.length && position.size === run.interactions.length;
  found = { index: run.sparseIndex, header: headerOf(run.sparseIndex), lines: exact ? body : null, position };
  linesCache.set(run.interactions, found);
  return found;
}

/**
 * An interaction's line as the run's index has it (built by buildSparseIndex from the same interactions),
 * so a long run's batches do not build each line again for every block they try (two or three times
 * per interaction: 20-30 ms of a 20 MB run); `sparseLine` when the index has no line per interaction,
 * and for a short run, whose few lines cost less than splitting its index.
 */
function indexLine(run: RunView, ix: ClassifiedInteraction): string {
  if (run.interactions.length < 64) return sparseLine(ix);
  const { lines, position } = indexLinesOf(run);
  const k = lines ? position.get(ix.id) : undefined;
  return k === undefined ? sparseLine(ix) : lines![k]!;
}

function headerOf(index: string): string {
  const first = index.indexOf('\n');
  const second = first === -1 ? -1 : index.indexOf('\n', first + 1);
  return second === -1 ? index.replace(/\n$/, '') : index.slice(0, second);
}

/** Failed interactions (in `scope`, when given) with the larger bounds; their ids are added to `shown`. */
export function failureDetails(
  run: RunView,
  shown: Set<number>,
  hints?: ReadonlyMap<number, string[]>,
  scope?: ReadonlySet<number>,
): string {
  const all = failedOf(run);
  const failed = scope ? all.filter((ix) => scope.has(ix.id)) : all;
  if (failed.length === 0) return '';
  const blocks: string[] = [];
  let used = 0;
  let left = 0;
  for (const ix of failed) {
    const block = detailBlockWithin(
      LIMITS.failureBudget - used,
      ix,
      run.events,
      true,
      hints?.get(ix.id),
      false,
      indexLine(run, ix),
    );
    if (block === null) {
      left++;
      continue;
    }
    used += block.length;
    blocks.push(block);
    shown.add(ix.id);
  }
  if (left > 0) blocks.push(`… ${left} more failed interactions are shown only in the index`);
  return blocks.join('\n');
}

const failedCache = new WeakMap<readonly ClassifiedInteraction[], ClassifiedInteraction[]>();

/** The run's failed interactions in run order, found once per run (each batch of a long run needs its own). */
function failedOf(run: RunView): ClassifiedInteraction[] {
  let found = failedCache.get(run.interactions);
  if (!found)
    failedCache.set(run.interactions, (found = run.interactions.filter((ix) => ix.outcome === 'error')));
  return found;
}

/**
 * Detail for the given interactions: failures with the larger bounds, the rest within the budget. Past
 * the budget an interaction keeps its index line and hints — or, when the prompt already holds the
 * index (`indexShown`), only its id in a closing note.
 */
export function detailsFor(
  run: RunView,
  list: readonly ClassifiedInteraction[],
  hints: ReadonlyMap<number, string[]>,
  indexShown = false,
): string {
  const blocks: string[] = [];
  let budget: number = LIMITS.detailBudget;
  // Failures get their own, larger budget; past it they are treated like the rest, so a run with
  // hundreds of failures still yields a prompt that fits a model's context.
  let failureBudget: number = LIMITS.failureBudget;
  let lineBudget: number = LIMITS.sparseIndex;
  const lineOnly: number[] = [];
  const idOnly: number[] = [];
  for (const ix of list) {
    const failure = ix.outcome === 'error';
    const own = indexLine(run, ix);
    const block = detailBlockWithin(
      failure ? failureBudget : budget,
      ix,
      run.events,
      failure,
      hints.get(ix.id),
      false,
      own,
    );
    if (block === null) {
      if (indexShown) {
        idOnly.push(ix.id);
        continue;
      }
      const line = detailBlockWithin(Infinity, ix, run.events, false, hints.get(ix.id), true, own)!;
      if (line.length > lineBudget) {
        idOnly.push(ix.id);
        continue;
      }
      lineBudget -= line.length;
      lineOnly.push(ix.id);
      blocks.push(line);
      continue;
    }
    if (failure) failureBudget -= block.length;
    else budget -= block.length;
    blocks.push(block);
  }
  if (lineOnly.length > 0)
    blocks.push(`(for length, ${ranges(lineOnly)} are shown by their index line only)`);
  if (idOnly.length > 0)
    blocks.push(
      indexShown
        ? `(for length, ${ranges(idOnly)} are shown in the index only)`
        : `(for length, ${ranges(idOnly)} are not shown; rate them from the index and the rest of the record)`,
    );
  return blocks.join('\n');
}

export function detailBlock(
  ix: ClassifiedInteraction,
  events: readonly TranscriptEvent[],
  failure: boolean,
  hints: readonly string[] = [],
  lineOnly = false,
): string {
  return detailBlockWithin(Infinity, ix, events, failure, hints, lineOnly)!;
}

/**
 * detailBlock's text, or null once it is longer than `max` characters: in a long run's batch most
 * interactions' blocks no longer fit the prompt's budget, and building each (its input stringified,
 * its output cleaned) only to drop it was most of the prompt's cost. A block's lines come in order and
 * the rest are built only while the text still fits.
 */
export function detailBlockWithin(
  max: number,
  ix: ClassifiedInteraction,
  events: readonly TranscriptEvent[],
  failure: boolean,
  hints: readonly string[] = [],
  lineOnly = false,
  /** The interaction's index line when the caller has it (`sparseLine(ix)`). */
  indexLine?: string,
): string | null {
  const lines: string[] = [];
  let length = -1;
  const add = (line: string): boolean => {
    length += line.length + 1;
    lines.push(line);
    return length <= max;
  };
  // The index line holds the run's words (tool input, reasoning): quoted like the rest of its text.
  if (!add(quote(indexLine ?? sparseLine(ix)))) return null;
  if (!lineOnly) {
    for (const line of detailLines(ix, events, failure)) if (!add(line)) return null;
    if (ix.failure && !add(`  failure: ${ix.failure.detail}`)) return null;
  }
  for (const h of hints) if (!add(`  signal: ${oneLine(h)}`)) return null;
  return lines.join('\n');
}

/** A block's lines after the index line: what the interaction did, one line built at a time. */
function* detailLines(
  ix: ClassifiedInteraction,
  events: readonly TranscriptEvent[],
  failure: boolean,
): Generator<string> {
  if (ix.type === 'tool' && ix.tool) {
    const input = inputText(ix.tool.input);
    if (input) yield `  input: ${quote(bound(input, failure ? LIMITS.failureInput : LIMITS.input))}`;
    const outputs = [ix.tool.output ?? '', ...(ix.tool.extraOutputs ?? [])].filter((o) => o !== '');
    if (ix.tool.output === null) yield '  output: (no result recorded)';
    else if (outputs.length === 0) yield '  output: (empty)';
    else {
      const output = outputs.join('\n');
      yield `  output: ${quote(bound(output, failure ? LIMITS.failureOutput : LIMITS.output))}`;
    }
  } else if (ix.type === 'reasoning') {
    const text = ix.entryIndices
      .map((i) => events[i])
      .map((e) => (e && (e.kind === 'text' || e.kind === 'thinking') ? e.text : ''))
      .join('\n')
      .trim();
    if (text) yield `  text: ${quote(bound(text, LIMITS.reasoning))}`;
  } else if (ix.type === 'error') {
    const e = events[ix.entryIndices[0]!];
    const message = e && e.kind === 'error' ? e.message : (ix.summary ?? '');
    yield `  message: ${quote(bound(message, LIMITS.failureOutput))}`;
  }
}
