/** The simulator's answer to a tool-less request no tape entry matches (the judge reads it as "no answer"). */
export const SIDE_CALL_TEXT = 'Simulated reply.';
