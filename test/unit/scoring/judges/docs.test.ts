/** docs/scoring.md's judge sections must stay in step with the code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../../src/scoring/judges/prompt-text.js';
import { MARKERS } from '../../../../src/scoring/judges/prompts.js';
import { JUDGE_PRICES } from '../../../../src/scoring/judges/prices.js';
import { ANTHROPIC_DEFAULT_MODEL } from '../../../../src/scoring/judges/anthropic.js';
import { OPENAI_DEFAULT_MODEL } from '../../../../src/scoring/judges/openai.js';
import { SIM_JUDGE_MODEL } from '../../../../src/scoring/judges/resolve.js';
import { DEFAULT_RUN_TIMEOUT_MS, DEFAULT_HTTP_TIMEOUT_MS } from '../../../../src/scoring/checks/index.js';

const doc = readFileSync(new URL('../../../../docs/scoring.md', import.meta.url), 'utf8');
const config = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
const n = (v: number) => v.toLocaleString('en-US');

describe('docs/scoring.md judge sections', () => {
  it('list exactly the price table', () => {
    const start = doc.indexOf('| Model ');
    const rows = doc
      .slice(start)
      .split('\n')
      .slice(2)
      .filter((l, i, all) => all.slice(0, i + 1).every((x) => x.startsWith('|')))
      .map((l) =>
        l
          .split('|')
          .map((c) => c.trim())
          .filter(Boolean),
      );
    const documented = Object.fromEntries(
      rows.map(([m, i, o]) => [m!.replace(/`/g, ''), { input: Number(i), output: Number(o) }]),
    );
    expect(documented).toEqual(JUDGE_PRICES);
  });

  it('name the prompt markers, default models and bounds the code uses', () => {
    for (const m of Object.values(MARKERS)) expect(doc).toContain(`\`${m}\``);
    for (const model of [ANTHROPIC_DEFAULT_MODEL, OPENAI_DEFAULT_MODEL, SIM_JUDGE_MODEL])
      expect(doc).toContain(`\`${model}\``);
    for (const model of [ANTHROPIC_DEFAULT_MODEL, OPENAI_DEFAULT_MODEL])
      expect(config).toContain(`\`${model}\``);
    expect(doc).toContain(`| task                                     | ${n(LIMITS.task)}`);
    expect(doc).toContain(
      `| tool input: failed / other               | ${n(LIMITS.failureInput)} / ${n(LIMITS.input)}`,
    );
    expect(doc).toContain(
      `| tool output: failed / other              | ${n(LIMITS.failureOutput)} / ${n(LIMITS.output)}`,
    );
    expect(doc).toContain(`| reasoning text                           | ${n(LIMITS.reasoning)}`);
    expect(doc).toContain(`${n(LIMITS.detailBudget)} per prompt`);
    expect(doc).toContain(`${n(LIMITS.sparseIndex)}: beyond it`);
    expect(doc).toContain(`${DEFAULT_RUN_TIMEOUT_MS / 1000} s limit`);
    expect(doc).toContain(`${DEFAULT_HTTP_TIMEOUT_MS / 1000} s limit`);
  });
});
