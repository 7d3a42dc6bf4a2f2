/**
 * The scaffold's simulator tape (`tapes/hello-world.json`), so a new user without an API key runs the
 * scaffold offline by turning `settings.simulate` on, with no tape to write first: the agent's two turns
 * and an answer for each judge (docs/simulator.md#tapes). Neutral tools: every built-in agent plays it.
 */
export const HELLO_TAPE = 'tapes/hello-world.json';

/** Audits for ids 1-6: more than any built-in agent makes of these turns; extra ids are ignored. */
const ids = [1, 2, 3, 4, 5, 6];

export function helloTape(): object {
  return {
    name: 'Hello world: write hello.txt',
    turns: [
      {
        text: "I'll create hello.txt.",
        tools: [{ write_file: { path: 'hello.txt', content: 'Hello, World!\n' } }],
      },
      { text: 'Created hello.txt with the content Hello, World!' },
    ],
    judge: [
      {
        match: 'AXIS judge: goal',
        answer: {
          grades: [
            { criterion_index: 0, score: 10, rationale: 'hello.txt was created.' },
            { criterion_index: 1, score: 10, rationale: 'hello.txt holds Hello, World!' },
          ],
        },
      },
      { match: 'AXIS judge: environment', answer: { audits: audits('The file write ran cleanly.') } },
      { match: 'AXIS judge: service', answer: { audits: audits('No external service was involved.') } },
      {
        match: 'AXIS judge: agent',
        answer: {
          audits: audits('A direct write of the requested file.', { weight: 1, relevance: 1 }),
          necessity: { score: 1, unnecessaryIds: [], rationale: 'Every step was needed.' },
          patterns: [],
        },
      },
    ],
  };
}

function audits(rationale: string, extra: Record<string, number> = {}) {
  return ids.map((id) => ({ id, success: 1, ...extra, rationale }));
}
