/** Judge answers the simulator plays in e2e tests of the plan agent (test/fixtures/command-agent). */

/** The agent judge: every audit a perfect success. */
export const PERFECT_AGENT_JUDGE = {
  match: 'AXIS judge: agent',
  answer: {
    audits: [1, 2, 3].map((id) => ({ id, success: 1, weight: 1, relevance: 1, rationale: 'fine' })),
    necessity: { score: 1, unnecessaryIds: [], rationale: 'needed' },
    patterns: [],
  },
};

/** The goal judge for a prompt holding `MARK_g<grade>`: that grade out of 10. */
export const goalGrade = (grade: number) => ({
  match: `/MARK_g${grade}\\b/`,
  answer: { grades: [{ criterion_index: 0, score: grade, rationale: `graded ${grade}` }] },
});
