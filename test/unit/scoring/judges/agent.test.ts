import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCommandAdapter } from '../../../../src/adapters/command.js';
import type { ResolvedAgent } from '../../../../src/config/types.js';
import { AGENT_PROMPT_FILE, createAgentJudge } from '../../../../src/scoring/judges/agent.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-agent-judge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A judge "agent": reports what it could see as JSON, and keeps a copy of its prompt file. */
const script = join(dir, 'judge.sh');
writeFileSync(
  script,
  `#!/bin/sh
instruction=$(cat)
cp ${AGENT_PROMPT_FILE} "${dir}/seen-prompt.md"
pwd > "${dir}/seen-cwd.txt"
printf 'Verdict:\\n{"argc": %s, "home": "%s", "secret": "%s", "files": "%s", "instruction": "%s"}\\n' \\
  "$#" "$HOME" "\${HOST_SECRET:-}" "$(ls -A | tr '\\n' ' ')" "$(echo "$instruction" | head -c 40)"
`,
);
chmodSync(script, 0o755);

const agent: ResolvedAgent = {
  name: 'judge-cmd',
  agent: 'command',
  flags: {},
  env: { JUDGE_MODE: 'strict' },
  skills: [],
  args: [],
  command: script,
  prompt_via: 'stdin',
  output: 'text',
};

describe('agent judge', () => {
  it('runs the agent in a fresh empty workspace with the prompt in a file, not in argv, without host secrets', async () => {
    const judge = createAgentJudge({
      agent,
      adapter: createCommandAdapter({ configDir: dir }),
      timeoutMs: 20_000,
      maxRetries: 0,
      hostEnv: { PATH: process.env.PATH, HOST_SECRET: 'do-not-leak', HOME: '/home/real-user' },
    });
    const reply = await judge.complete({
      system: 'SYSTEM TEXT',
      messages: [{ role: 'user', content: 'AXIS judge: goal\nGrade it. '.repeat(2000) }],
    });
    const seen = JSON.parse(reply.text.slice(reply.text.indexOf('{'))) as Record<string, string | number>;
    expect(seen.argc).toBe(0);
    expect(seen.secret).toBe('');
    expect(seen.home).not.toBe('/home/real-user');
    expect(String(seen.home)).toMatch(/axis-judge-/);
    expect(String(seen.files).trim()).toBe(AGENT_PROMPT_FILE);
    expect(seen.instruction).toBe(`Read the file ${AGENT_PROMPT_FILE} in th`);
    const prompt = readFileSync(join(dir, 'seen-prompt.md'), 'utf8');
    expect(prompt.startsWith('SYSTEM TEXT\n')).toBe(true);
    expect(prompt).toContain('## Request\n\nAXIS judge: goal\nGrade it.');
    expect(prompt.length).toBeGreaterThan(20_000);
    // The workspace is removed after the call.
    expect(existsSync(readFileSync(join(dir, 'seen-cwd.txt'), 'utf8').trim())).toBe(false);
    expect(reply.attempts).toBe(1);
    expect(judge.label).toBe('agent judge-cmd');
  });

  it('retries a crashed judge agent and reports the failure after max_retries', async () => {
    const failing = join(dir, 'fail.sh');
    writeFileSync(failing, '#!/bin/sh\necho "overloaded" >&2\nexit 3\n');
    chmodSync(failing, 0o755);
    const judge = createAgentJudge({
      agent: { ...agent, command: failing },
      adapter: createCommandAdapter({ configDir: dir }),
      timeoutMs: 20_000,
      maxRetries: 1,
      baseDelayMs: 1,
    });
    const err = (await judge
      .complete({ system: 's', messages: [{ role: 'user', content: 'p' }] })
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^judge agent judge-cmd failed \(crash\): .*\(2 attempts\)$/);
  });
});
