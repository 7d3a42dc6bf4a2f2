import { describe, expect, it } from 'vitest';
import { balancedObjects, extractJson, jsonCandidates } from '../../../../src/scoring/judges/extract.js';

describe('extractJson', () => {
  it('takes a bare JSON answer as is', () => {
    expect(extractJson('{"grades":[{"criterion_index":0,"score":7}]}')).toEqual({
      grades: [{ criterion_index: 0, score: 7 }],
    });
  });

  it('finds a fenced json block inside prose', () => {
    const text = 'Here is my verdict:\n```json\n{"audits": [{"id": 3, "success": 1}]}\n```\nThanks.';
    expect(extractJson(text)).toEqual({ audits: [{ id: 3, success: 1 }] });
  });

  it('finds an unlabelled fence too', () => {
    expect(extractJson('```\n{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it('takes the first balanced object, not the span from the first { to the last }', () => {
    // A greedy first-{-to-last-} match would try `{"a": 1} and then {"b": 2}` and fail.
    const text = 'First {"a": 1} and then {"b": 2} in the text.';
    expect(extractJson(text)).toEqual({ a: 1 });
    expect(jsonCandidates(text)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('skips braces in prose that are not JSON', () => {
    const text = 'The set {x | x > 1} is empty. Answer: {"score": 4, "rationale": "a } inside a string"}';
    expect(extractJson(text)).toEqual({ score: 4, rationale: 'a } inside a string' });
  });

  it('respects escaped quotes inside strings', () => {
    const text = 'x {"rationale": "he said \\"}\\" twice", "score": 1} y';
    expect(extractJson(text)).toEqual({ rationale: 'he said "}" twice', score: 1 });
  });

  it('returns the outer object of nested ones', () => {
    expect(extractJson('noise {"necessity": {"score": 0.5}, "audits": []} noise')).toEqual({
      necessity: { score: 0.5 },
      audits: [],
    });
  });

  it('returns undefined when there is no JSON object', () => {
    expect(extractJson('I cannot grade this run.')).toBeUndefined();
    expect(extractJson('[1, 2, 3]')).toBeUndefined();
    expect(extractJson('{"unterminated": ')).toBeUndefined();
  });

  it('balancedObjects lists only parseable objects', () => {
    expect(balancedObjects('{bad} {"ok": true} {"also": [1, {"deep": 2}]}')).toEqual([
      '{"ok": true}',
      '{"also": [1, {"deep": 2}]}',
    ]);
  });
});
