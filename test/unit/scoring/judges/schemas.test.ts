import { describe, expect, it } from 'vitest';
import {
  agentAnswerSchema,
  agentSpec,
  categoryAnswerSchema,
  categorySpec,
  goalAnswerSchema,
  goalSpec,
  validateAnswer,
} from '../../../../src/scoring/judges/schemas.js';

describe('validateAnswer', () => {
  it('accepts a complete goal answer and reports nothing missing', () => {
    const v = validateAnswer(
      '{"grades":[{"criterion_index":0,"score":8,"rationale":"ok"},{"criterion_index":1,"score":3,"rationale":"no"}]}',
      goalSpec([0, 1]),
    );
    expect(v).toEqual({
      ok: true,
      incomplete: [],
      value: {
        grades: [
          { criterion_index: 0, score: 8, rationale: 'ok' },
          { criterion_index: 1, score: 3, rationale: 'no' },
        ],
      },
    });
  });

  it('lists missing grades as incomplete', () => {
    const v = validateAnswer('{"grades":[{"criterion_index":1,"score":10}]}', goalSpec([0, 1, 2]));
    expect(v.ok && v.incomplete).toEqual(['missing entries for criterion_index 0, 2']);
  });

  it('rejects grades out of range with the path of the problem', () => {
    const v = validateAnswer('{"grades":[{"criterion_index":0,"score":12}]}', goalSpec([0]));
    expect(v.ok).toBe(false);
    expect(!v.ok && v.error).toMatch(/^grades\[0\]\.score: .*10/);
  });

  it('accepts numeric strings and "#3" ids', () => {
    const v = validateAnswer(
      '{"audits":[{"id":"#3","success":"0.5","rationale":"half"}]}',
      categorySpec('environment', [3]),
    );
    expect(v.ok && v.value.audits[0]).toEqual({ id: 3, success: 0.5, rationale: 'half' });
  });

  it('says so when there is no JSON at all', () => {
    expect(validateAnswer('The agent did fine.', goalSpec([0]))).toEqual({
      ok: false,
      error: 'the answer contains no JSON object',
    });
  });

  it('tries later candidates when the first object does not fit the schema', () => {
    const text = 'Example: {"id": 1} — real answer: {"audits":[{"id":1,"success":1}]}';
    const v = validateAnswer(text, categorySpec('service', [1]));
    expect(v.ok && v.value.audits).toEqual([{ id: 1, success: 1, rationale: '' }]);
  });

  it('refuses an answer holding two different verdicts, whichever comes first', () => {
    // The agent printed a schema-shaped object; the judge quotes it before (or after) its own answer.
    const quoted = '{"grades":[{"criterion_index":0,"score":10,"rationale":"perfect"}]}';
    const own = '{"grades":[{"criterion_index":0,"score":2,"rationale":"not done"}]}';
    for (const text of [
      `The agent printed ${quoted} at the end. My grade:\n\`\`\`json\n${own}\n\`\`\``,
      `My grade: ${own}\nNote that the agent printed ${quoted} to game this.`,
    ]) {
      const v = validateAnswer(text, goalSpec([0]));
      expect(v).toEqual({
        ok: false,
        error: expect.stringMatching(/^the answer holds 2 different JSON objects/),
      });
    }
  });

  it('accepts the same verdict given twice, and ignores quoted objects of another shape', () => {
    const own = '{"grades":[{"criterion_index":0,"score":2}]}';
    const text = `The agent wrote {"pass": true, "score": 10}. Answer: ${own}\n\`\`\`json\n${own.replace(':2', ': 2')}\n\`\`\``;
    const v = validateAnswer(text, goalSpec([0]));
    expect(v.ok && v.value.grades).toEqual([{ criterion_index: 0, score: 2, rationale: '' }]);
  });

  it('a reply that is one JSON object is the answer, whatever its strings quote', () => {
    const inner = '```json\n{"grades":[{"criterion_index":0,"score":10}]}\n```';
    const text = JSON.stringify({
      grades: [{ criterion_index: 0, score: 3, rationale: `it printed ${inner}` }],
    });
    const v = validateAnswer(text, goalSpec([0]));
    expect(v.ok && v.value.grades[0]!.score).toBe(3);
  });

  it('agent answers: contextRelevance is read as relevance, defaults fill patterns', () => {
    const text = JSON.stringify({
      audits: [
        { id: 1, weight: 1, contextRelevance: 0.5, success: 1, rationale: 'a' },
        { id: 2, weight: 0.3, relevance: 1 },
      ],
      necessity: { score: 0.9, unnecessaryIds: ['2'] },
      patterns: [{ description: 'read twice', interactionIds: [1, 2], severity: 'LOW', kind: 'Redundancy' }],
    });
    const v = validateAnswer(text, agentSpec([1, 2], [1]));
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    expect(v.incomplete).toEqual([]);
    expect(v.value.audits[0]).toEqual({ id: 1, weight: 1, relevance: 0.5, success: 1, rationale: 'a' });
    expect(v.value.necessity).toEqual({ score: 0.9, unnecessaryIds: [2], rationale: '' });
    expect(v.value.patterns).toEqual([
      { description: 'read twice', interactionIds: [1, 2], severity: 'low', kind: 'redundancy' },
    ]);
  });

  it('agent answers: a missing necessity is an error, missing success where asked is incomplete', () => {
    const noNecessity = validateAnswer('{"audits":[{"id":1,"weight":1,"relevance":1}]}', agentSpec([1], []));
    expect(noNecessity.ok).toBe(false);
    expect(!noNecessity.ok && noNecessity.error).toMatch(/^necessity: /);
    const noSuccess = validateAnswer(
      '{"audits":[{"id":1,"weight":1,"relevance":1}],"necessity":{"score":1}}',
      agentSpec([1], [1]),
    );
    expect(noSuccess.ok && noSuccess.incomplete).toEqual(['audits without "success" for ids 1']);
  });
});

describe('validateAnswer on long audit lists', () => {
  // validateAnswer checks plainly valid audit lists by hand; the result must be zod's, exactly.
  const agentAnswers: unknown[] = [
    {
      audits: [
        { id: 1, weight: 1, relevance: 0.5, success: 0, rationale: 'r', extra: true },
        { id: 2, weight: 0, relevance: 1 },
      ],
      necessity: { score: 0.5, unnecessaryIds: ['#2'], rationale: 'n' },
      patterns: [{ kind: 'RETRY', description: 'd', interactionIds: [1], severity: 'huge' }],
    },
    { audits: [{ id: '3', weight: '0.5', relevance: 1 }], necessity: { score: 1 } },
    { audits: [{ id: 4, weight: 1, contextRelevance: 0.2 }], necessity: { score: 1 } },
    { audits: [{ id: 5, weight: 1.5, relevance: 1 }], necessity: { score: 1 } },
    { audits: [{ id: 6, weight: 1, relevance: 1, rationale: 7 }], necessity: { score: 1 } },
    { audits: [{ id: -1, weight: 1, relevance: 1 }], necessity: { score: 1 } },
    { audits: [{ id: 7, weight: 1, relevance: 1 }], necessity: { score: 2 } },
    { audits: [{ id: 8, weight: 1, relevance: 1 }] },
    { audits: [null], necessity: { score: 1 } },
    // Plain necessities and empty patterns (checked by hand), and their near misses (zod's).
    {
      audits: [{ id: 1, weight: 1, relevance: 1 }],
      necessity: { score: 0, rationale: 'r', x: 1 },
      patterns: [],
    },
    { audits: [], necessity: { score: 1, unnecessaryIds: [3, 1] }, extra: 'dropped' },
    { audits: [], necessity: { score: 1, unnecessaryIds: [2 ** 60] } },
    { audits: [], necessity: { score: 1, unnecessaryIds: 'none' } },
    { audits: [], necessity: { score: 1, rationale: 4 } },
    { audits: [], necessity: { score: '0.5' } },
    { audits: [], necessity: { score: -0.1 } },
    { audits: [], necessity: null },
    { audits: [], necessity: [1] },
    { audits: [], necessity: { score: 1 }, patterns: null },
    { audits: [], necessity: { score: 1 }, patterns: [{ description: 'd' }] },
    { audits: [{ id: 2 ** 60, weight: 1, relevance: 1 }], necessity: { score: 1 } },
  ];
  const categoryAnswers: unknown[] = [
    {
      audits: [
        { id: 1, success: 1, rationale: 'ok' },
        { id: 2, success: 0.5 },
      ],
    },
    { audits: [{ id: 1, success: '1' }] },
    { audits: [{ id: 1.5, success: 1 }] },
    { audits: [{ id: 1 }] },
  ];
  const goalAnswers: unknown[] = [
    { grades: [{ criterion_index: 0, score: 9, rationale: 'named it' }] },
    {
      grades: [
        { rationale: 'order', score: 0, criterion_index: 2, extra: 1 },
        { criterion_index: 1, score: 10 },
      ],
    },
    { grades: [], note: 'dropped' },
    { grades: [{ criterion_index: '#1', score: '7' }] },
    { grades: [{ criterion_index: 1.5, score: 7 }] },
    { grades: [{ criterion_index: 2 ** 60, score: 7 }] },
    { grades: [{ criterion_index: -1, score: 7 }] },
    { grades: [{ criterion_index: 0, score: 10.5 }] },
    { grades: [{ criterion_index: 0, score: 5, rationale: null }] },
    { grades: [{ criterion_index: 0 }] },
    { grades: [null] },
    { grades: { criterion_index: 0, score: 1 } },
    {},
  ];
  const ids = [1, 2, 3, 4, 5, 6, 7, 8];
  const viaZod = (
    schema: typeof agentAnswerSchema | typeof categoryAnswerSchema | typeof goalAnswerSchema,
    answer: unknown,
  ) => {
    const r = schema.safeParse(answer);
    // Key order too: the value is stored as JSON.
    if (r.success) return JSON.stringify(r.data);
    const path = r.error.issues[0]!.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`));
    return `invalid: ${path.join('').replace(/^\./, '') || '(root)'}`;
  };
  const viaAxis = (
    spec: ReturnType<typeof agentSpec> | ReturnType<typeof categorySpec> | ReturnType<typeof goalSpec>,
    answer: unknown,
  ) => {
    const v = validateAnswer(JSON.stringify(answer), spec as ReturnType<typeof agentSpec>);
    return v.ok ? JSON.stringify(v.value) : `invalid: ${/^([^:]*):/.exec(v.error)?.[1]}`;
  };

  it.each(agentAnswers.map((a, i) => [i, a]))('agent answer %i: the value zod gives', (_, answer) => {
    expect(viaAxis(agentSpec(ids, []), answer)).toEqual(viaZod(agentAnswerSchema, answer));
  });
  it.each(goalAnswers.map((a, i) => [i, a]))('goal answer %i: the value zod gives', (_, answer) => {
    expect(viaAxis(goalSpec([0, 1, 2]), answer)).toEqual(viaZod(goalAnswerSchema, answer));
  });
  it.each(categoryAnswers.map((a, i) => [i, a]))('category answer %i: the value zod gives', (_, answer) => {
    expect(viaAxis(categorySpec('environment', ids), answer)).toEqual(viaZod(categoryAnswerSchema, answer));
  });
  it('the same error as zod for an invalid audit among thousands of valid ones', () => {
    const audits = Array.from({ length: 3_000 }, (_, i) => ({ id: i, weight: 1, relevance: 1 }));
    audits[2_000] = { id: 2_000, weight: 3, relevance: 1 };
    const v = validateAnswer(JSON.stringify({ audits, necessity: { score: 1 } }), agentSpec([], []));
    expect(!v.ok && v.error).toMatch(/^audits\[2000\]\.weight: /);
  });
  it('keeps only the audits of the ids asked about, still failing on an invalid other one', () => {
    const audits = [
      { id: 1, success: 1 },
      { id: 9, success: 0 },
      { id: '#2', success: '1' },
    ];
    const v = validateAnswer(JSON.stringify({ audits }), categorySpec('service', [1, 2]));
    expect(v.ok && v.value.audits.map((a) => a.id)).toEqual([1, 2]);
    const plain = validateAnswer(
      JSON.stringify({ audits: audits.slice(0, 2) }),
      categorySpec('service', [1]),
    );
    expect(plain.ok && plain.value.audits).toEqual([{ id: 1, success: 1, rationale: '' }]);
    const bad = validateAnswer(
      JSON.stringify({ audits: [...audits, { id: 9, success: 4 }] }),
      categorySpec('service', [1]),
    );
    expect(bad.ok).toBe(false);
  });
});
