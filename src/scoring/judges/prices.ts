/**
 * A small table of list prices (USD per million tokens) for judge models, used to estimate judge cost
 * when the provider does not report one. Models are matched by prefix, longest first, so dated ids
 * (`claude-sonnet-4-5-20250929`) find their family. Unknown models get no cost, never a guess.
 */
import type { JudgeTokens } from './types.js';

export interface Price {
  input: number;
  output: number;
}

export const JUDGE_PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
};

const PREFIXES = Object.keys(JUDGE_PRICES).sort((a, b) => b.length - a.length);

export function priceOf(model: string): Price | undefined {
  const m = model.toLowerCase();
  const key = PREFIXES.find((p) => m === p || m.startsWith(`${p}-`) || m.startsWith(`${p}@`));
  return key === undefined ? undefined : JUDGE_PRICES[key];
}

/** Cost in USD, or undefined for a model not in the table. */
export function costOf(model: string, tokens: JudgeTokens): number | undefined {
  const p = priceOf(model);
  if (!p) return undefined;
  return (tokens.input * p.input + tokens.output * p.output) / 1_000_000;
}
