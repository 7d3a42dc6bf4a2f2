/**
 * Asking one judge question: cache lookup, the call, validation against the answer schema, and one
 * repair attempt that shows the judge what was wrong. Transport retries happen inside the client.
 */
import { SIDE_CALL_TEXT } from '../../sim/side-call.js';
import type { JudgeCache } from '../cache.js';
import { validateAnswer, type AnswerSpec, type Validation } from './schemas.js';
import {
  JudgeError,
  type JudgeClient,
  type JudgeMessage,
  type JudgeReply,
  type JudgeTokens,
} from './types.js';

/** Bump when prompts or schemas change meaning, so cached answers to the old wording are not reused. */
export const PROMPT_VERSION = 1;
const MAX_ECHO_CHARS = 4_000;

export interface JudgeCallRecord {
  /** `goal`, `environment`, `service`, `agent`. */
  name: string;
  status: 'ok' | 'cached' | 'failed';
  /** Questions sent: 1, or 2 with a repair (0 when cached). */
  calls: number;
  /** Requests including transport retries. */
  requests: number;
  repaired: boolean;
  /** Characters sent (system + messages, summed over calls): what the judge had to read. */
  inputChars: number;
  tokens: JudgeTokens;
  costUsd?: number;
  model?: string;
  error?: string;
  /** Grades or audits still missing after the repair attempt. */
  incomplete?: string[];
}

export interface AskOptions<T> {
  client: JudgeClient;
  cache: JudgeCache;
  spec: AnswerSpec<T>;
  system: string;
  prompt: string;
  signal?: AbortSignal;
}

export interface AskResult<T> {
  value?: T;
  record: JudgeCallRecord;
}

export async function askJudge<T>(opts: AskOptions<T>): Promise<AskResult<T>> {
  const { client, cache, spec, system } = opts;
  const messages: JudgeMessage[] = [{ role: 'user', content: opts.prompt }];
  const record: JudgeCallRecord = {
    name: spec.name,
    status: 'ok',
    calls: 0,
    requests: 0,
    repaired: false,
    inputChars: 0,
    tokens: { input: 0, output: 0 },
  };
  const key =
    client.cacheId !== null && cache.enabled
      ? cache.key({ cacheId: client.cacheId, system, messages, schema: `${spec.name}@${PROMPT_VERSION}` })
      : undefined;

  if (key !== undefined) {
    const hit = await cache.get(key);
    if (hit) {
      const v = validateAnswer(hit.text, spec);
      if (v.ok && v.incomplete.length === 0)
        return { value: v.value, record: { ...record, status: 'cached', model: hit.model } };
    }
  }

  let first: JudgeReply;
  try {
    first = await callJudge(opts, record, messages);
  } catch (err) {
    return failed(record, `${client.label}: ${errorText(err)}`);
  }
  const v1 = validateAnswer(first.text, spec);
  if (v1.ok && v1.incomplete.length === 0) {
    if (key !== undefined) await cache.set(key, cacheEntry(first, first.text));
    return { value: v1.value, record };
  }
  return repair(opts, record, messages, key, first, v1);
}

/** One repair attempt: the judge sees its answer and what was wrong with it. */
async function repair<T>(
  opts: AskOptions<T>,
  record: JudgeCallRecord,
  messages: JudgeMessage[],
  key: string | undefined,
  first: JudgeReply,
  v1: Validation<T>,
): Promise<AskResult<T>> {
  const { client, cache, spec } = opts;
  const problem = v1.ok ? v1.incomplete.join('; ') : v1.error;
  record.repaired = true;
  let second: JudgeReply;
  try {
    second = await callJudge(opts, record, [
      ...messages,
      { role: 'assistant', content: echo(first.text) },
      { role: 'user', content: repairPrompt(problem) },
    ]);
  } catch (err) {
    if (v1.ok) return { value: v1.value, record: { ...record, incomplete: v1.incomplete } };
    return failed(record, `${client.label}: ${errorText(err)}`);
  }
  const v2 = validateAnswer(second.text, spec);
  if (v2.ok) {
    if (v2.incomplete.length === 0) {
      if (key !== undefined) await cache.set(key, cacheEntry(second, second.text));
      return { value: v2.value, record };
    }
    return { value: v2.value, record: { ...record, incomplete: v2.incomplete } };
  }
  if (v1.ok) return { value: v1.value, record: { ...record, incomplete: v1.incomplete } };
  // Only the simulator answers this: a simulated run whose tape holds no judge entry for the request.
  if (first.text.trim() === SIDE_CALL_TEXT && second.text.trim() === SIDE_CALL_TEXT)
    return failed(
      record,
      `${client.label}: the tape has no judge answer for this request (add a "judge" entry: docs/simulator.md#judge-answers)`,
    );
  return failed(record, `${client.label}: the answer was invalid twice (${v2.error})`);
}

/** One question sent; its calls, characters, requests, tokens, cost and model go into `record`. */
async function callJudge<T>(
  opts: AskOptions<T>,
  record: JudgeCallRecord,
  msgs: JudgeMessage[],
): Promise<JudgeReply> {
  const { client, system } = opts;
  record.calls++;
  record.inputChars += system.length + msgs.reduce((n, m) => n + m.content.length, 0);
  try {
    const reply = await client.complete({ system, messages: msgs, signal: opts.signal });
    record.requests += reply.attempts;
    record.tokens.input += reply.usage.input;
    record.tokens.output += reply.usage.output;
    if (reply.costUsd !== undefined) record.costUsd = (record.costUsd ?? 0) + reply.costUsd;
    record.model = reply.model;
    return reply;
  } catch (err) {
    if (err instanceof JudgeError) record.requests += err.attempts;
    throw err;
  }
}

function failed<T>(record: JudgeCallRecord, message: string): AskResult<T> {
  return { record: { ...record, status: 'failed', error: message } };
}

export function repairPrompt(problem: string): string {
  return (
    `Your answer could not be used: ${problem}.\n` +
    'Reply again with only the JSON object in the format asked for above, complete, with no other text.'
  );
}

function echo(text: string): string {
  const t = text.trim() === '' ? '(empty answer)' : text;
  return t.length > MAX_ECHO_CHARS ? `${t.slice(0, MAX_ECHO_CHARS)}\n… (cut)` : t;
}

function cacheEntry(reply: JudgeReply, text: string) {
  return {
    text,
    model: reply.model,
    usage: reply.usage,
    ...(reply.costUsd !== undefined ? { costUsd: reply.costUsd } : {}),
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
