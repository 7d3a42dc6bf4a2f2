import { describe, expect, it } from 'vitest';
import type { AskResult } from '../../../../src/scoring/judges/ask.js';
import { askInBatches, batchSize, questionPicker } from '../../../../src/scoring/judges/batch.js';
import { seeded } from '../../../helpers/random.js';

type Answer = { audits: Array<{ id: number }> };
const record = (status: 'ok' | 'failed' = 'ok') => ({
  name: 'agent',
  status,
  calls: 1,
  requests: 1,
  repaired: false,
  inputChars: 10,
  tokens: { input: 1, output: 1 },
});
const answered = (v: Answer, asked: readonly number[]) =>
  v.audits.map((a) => a.id).filter((i) => asked.includes(i));
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('judge batches', () => {
  it('sizes batches so an answer fits the answer budget', () => {
    expect(batchSize('agent')).toBe(133);
    expect(batchSize('category')).toBe(191);
  });

  it('asks a giant run in batches and gets every audit', async () => {
    const asked: number[][] = [];
    const out = await askInBatches<Answer>({
      ids: ids(300),
      size: 133,
      ask: async (batch): Promise<AskResult<Answer>> => {
        asked.push(batch);
        return { value: { audits: batch.map((id) => ({ id })) }, record: record() };
      },
      answered,
    });
    expect(asked.map((b) => b.length)).toEqual([133, 133, 34]);
    expect(out.missing).toEqual([]);
    expect(out.records).toHaveLength(3);
  });

  it('asks again for the ids a judge left out, and reports what is still missing', async () => {
    const asked: number[][] = [];
    const out = await askInBatches<Answer>({
      ids: ids(43),
      size: 100,
      // Audits only the first id it is asked about, every time.
      ask: async (batch) => {
        asked.push(batch);
        return { value: { audits: [{ id: batch[0]! }] }, record: record() };
      },
      answered,
    });
    expect(asked).toEqual([ids(43), ids(43).slice(1)]);
    expect(out.missing).toEqual(ids(43).slice(2));
  });

  it('does not ask again after a failed judge (the failure decides)', async () => {
    let calls = 0;
    const out = await askInBatches<Answer>({
      ids: ids(3),
      size: 10,
      ask: async () => {
        calls++;
        return { record: record('failed') };
      },
      answered,
    });
    expect(calls).toBe(1);
    expect(out.missing).toEqual([1, 2, 3]);
  });
});

describe('questionPicker', () => {
  it('gives what filtering the questions by the ids gives, in question order', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = seeded(seed);
      const int = (n: number) => Math.floor(r() * n);
      // Ids out of order, repeated (one interaction, several questions), and asked ids with no question.
      const questions = Array.from({ length: int(60) }, (_, k) => ({ interactionId: int(40), k }));
      const pick = questionPicker(questions);
      for (let b = 0; b < 5; b++) {
        const ids = Array.from({ length: int(30) }, () => int(50));
        const wanted = new Set(ids);
        const expected = questions.filter((q) => wanted.has(q.interactionId));
        expect(pick(ids), `seed ${seed}, batch ${b}`).toEqual(expected);
      }
    }
  });

  it('hands back the question objects themselves', () => {
    const questions = [{ interactionId: 3 }, { interactionId: 1 }, { interactionId: 3 }];
    const picked = questionPicker(questions)([3]);
    expect(picked).toHaveLength(2);
    expect(picked[0]).toBe(questions[0]);
    expect(picked[1]).toBe(questions[2]);
  });
});
