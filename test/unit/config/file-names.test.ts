import { describe, expect, it } from 'vitest';
import { agentNameProblem, MAX_AGENT_NAME_BYTES } from '../../../src/config/file-names.js';

describe('agentNameProblem counts bytes, as file systems do', () => {
  it('takes an ASCII name of exactly the limit and refuses one more character', () => {
    expect(agentNameProblem('a'.repeat(MAX_AGENT_NAME_BYTES), 'agents[0]')).toBeUndefined();
    expect(agentNameProblem('a'.repeat(MAX_AGENT_NAME_BYTES + 1), 'agents[0]')?.message).toContain(
      `(${MAX_AGENT_NAME_BYTES + 1} bytes)`,
    );
  });

  it('refuses a shorter name of multi-byte characters and says how many bytes it is', () => {
    const name = '€'.repeat(100); // 100 characters, 300 bytes in UTF-8
    const problem = agentNameProblem(name, 'agents[1]');
    expect(problem?.path).toBe('agents[1]');
    expect(problem?.message).toMatch(/at most 191 bytes in UTF-8 .* \(300 bytes\); set a shorter "name"$/);
    expect(agentNameProblem('€'.repeat(63), 'agents[1]')).toBeUndefined(); // 189 bytes
  });
});
