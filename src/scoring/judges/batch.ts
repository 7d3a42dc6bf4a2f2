/**
 * Asking an audit judge about many interactions: in batches sized so one answer fits the judge's answer
 * budget (giant runs still get every audit), then once more for any id still missing after the repair
 * attempt. Coverage is checked by the caller: a dimension is scored only when every interaction in its
 * pool has its verdicts (docs/scoring.md#judges).
 */
import type { AskResult, JudgeCallRecord } from './ask.js';

/** Output tokens a judge may spend on one answer (the Anthropic client's max_tokens). */
export const ANSWER_BUDGET_TOKENS = 8192;
/** Tokens one audit takes in an answer, generously (id, numbers, a rationale under 15 words). */
export const TOKENS_PER_AUDIT = { agent: 50, category: 35 } as const;
/** Kept free for the rest of the answer (necessity, patterns). */
const RESERVED_TOKENS = 1_500;

/**
 * Batches of one judge in flight at once: a giant run's 70 batches do not all hold their prompt and
 * answer in memory together, nor hit a provider's rate limit at once.
 */
export const MAX_PARALLEL_BATCHES = 6;

export function batchSize(kind: keyof typeof TOKENS_PER_AUDIT): number {
  return Math.floor((ANSWER_BUDGET_TOKENS - RESERVED_TOKENS) / TOKENS_PER_AUDIT[kind]);
}

export interface BatchedAnswer<T> {
  values: T[];
  /** The ids each value was asked about (parallel to `values`): audits of other ids are not its to give. */
  asked: number[][];
  records: JudgeCallRecord[];
  /** Ids still without a complete audit after the re-ask. */
  missing: number[];
}

export async function askInBatches<T>(opts: {
  ids: readonly number[];
  size: number;
  ask: (ids: number[], batch: number) => Promise<AskResult<T>>;
  /** Ids a value audits completely (for the agent judge: with `success` where it was asked). */
  answered: (value: T, asked: readonly number[]) => number[];
}): Promise<BatchedAnswer<T>> {
  const values: T[] = [];
  const asked: number[][] = [];
  const records: JudgeCallRecord[] = [];
  const done = new Set<number>();
  let batch = 0;
  const round = async (ids: readonly number[]) => {
    const chunks: number[][] = [];
    for (let i = 0; i < ids.length; i += opts.size) chunks.push(ids.slice(i, i + opts.size));
    const results = await inPool(chunks, MAX_PARALLEL_BATCHES, (chunk) => opts.ask(chunk, ++batch));
    results.forEach((res, i) => {
      records.push(res.record);
      if (!res.value) return;
      values.push(res.value);
      asked.push(chunks[i]!);
      for (const id of opts.answered(res.value, chunks[i]!)) done.add(id);
    });
  };
  await round(opts.ids);
  const failed = records.some((r) => r.status === 'failed');
  let missing = opts.ids.filter((id) => !done.has(id));
  if (missing.length > 0 && !failed) {
    await round(missing);
    missing = opts.ids.filter((id) => !done.has(id));
  }
  return { values, asked, records, missing };
}

/**
 * The questions about a batch's ids, in question order (what `questions.filter(q => ids has q's id)`
 * gives), from an index built once: filtering the whole list for each batch was quadratic, 30 ms of a
 * 20 MB run's 70 batches over 8,000 questions.
 */
export function questionPicker<Q extends { interactionId: number }>(
  questions: readonly Q[],
): (ids: readonly number[]) => Q[] {
  const at = new Map<number, number[]>();
  questions.forEach((q, i) => {
    const list = at.get(q.interactionId);
    if (list) list.push(i);
    else at.set(q.interactionId, [i]);
  });
  return (ids) => {
    const picked: number[] = [];
    for (const id of new Set(ids)) for (const i of at.get(id) ?? []) picked.push(i);
    picked.sort((a, b) => a - b);
    return picked.map((i) => questions[i]!);
  };
}

/** `fn` over `items`, at most `limit` at a time; results in item order. */
async function inPool<I, R>(items: readonly I[], limit: number, fn: (item: I) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
