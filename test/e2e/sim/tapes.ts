/** Tapes shared by the per-CLI e2e tests, and helpers to read each CLI's JSON output. */
import { TOOL_CANDIDATES, type NextCondition, type Tape } from '../../../src/sim/index.js';
import { OFFERED, type CliName } from '../../unit/sim/helpers.js';

export const PROMPT = 'Create out.txt containing hello.';
export const FINAL_TEXT = 'Done: out.txt holds hello.';

/** Turn 0: a shell command that writes a file; turn 1: final text. */
export const writeFileTape = (fault?: Tape['turns'][number]['fault']): Tape => ({
  name: 'two-turn shell write',
  turns: [
    {
      text: 'I will create the file.',
      tools: [{ shell: 'echo hello > out.txt && ls' }],
      ...(fault ? { fault } : {}),
    },
    { text: FINAL_TEXT },
  ],
});

/** A command that fails with exit 3; the tape branches to `failed` when the CLI reports it. */
export const failingTape = (cond: NextCondition = { exit_nonzero: true }): Tape => ({
  name: 'failing command',
  turns: [
    { tools: [{ shell: 'ls /nonexistent-axis-dir; exit 3' }], next: [{ if: cond, goto: 'failed' }] },
    { text: 'It worked.' },
    { id: 'failed', text: 'The command failed.' },
  ],
});

/** write_file, edit_file, read_file in turn; branches to `seen` when the read shows the edit. */
export const fileToolsTape: Tape = {
  name: 'file tools',
  turns: [
    { tools: [{ write_file: { path: 'notes/todo.txt', content: 'alpha\n' } }] },
    { tools: [{ edit_file: { path: 'notes/todo.txt', old: 'alpha', new: 'beta' } }] },
    {
      tools: [{ read_file: { path: 'notes/todo.txt' } }],
      next: [{ if: { result_contains: 'beta' }, goto: 'seen' }],
    },
    { text: 'The read did not show the edit.' },
    { id: 'seen', thinking: 'The read shows the edit.', text: 'File tools worked.' },
  ],
};

/**
 * The native tools the unit tests map neutral tools onto, per the recorded fixture. The live CLI must
 * still offer every one of them: the check that the fixture matches the installed version.
 */
export function mappedToolNames(cli: CliName): string[] {
  const offered = new Set(OFFERED[cli].map((t) => t.name));
  return Object.values(TOOL_CANDIDATES)
    .map((names) => names.find((n) => offered.has(n)))
    .filter((n): n is string => n !== undefined);
}

/** A turn needing an MCP tool no CLI here has: the simulator must fail it loudly. */
export const missingToolTape: Tape = {
  name: 'tool not offered',
  turns: [
    { tools: [{ mcp: { server: 'axisdocs', tool: 'search', args: { q: 'x' } } }] },
    { text: 'unreachable' },
  ],
};

export type Line = Record<string, unknown>;

/** Claude Code / Qwen Code stream-json: content blocks of assistant and user lines. */
export function streamJsonBlocks(
  lines: Line[],
  role: 'assistant' | 'user',
  type: string,
): Record<string, unknown>[] {
  return lines
    .filter((l) => l.type === role)
    .flatMap((l) => ((l.message as { content?: unknown[] })?.content ?? []) as Record<string, unknown>[])
    .filter((b) => typeof b === 'object' && b !== null && b.type === type);
}

export function resultLine(lines: Line[]): Line | undefined {
  return lines.find((l) => l.type === 'result');
}

export function served(
  requests: { answer: { kind: string; turn?: number; turnId?: string; fault?: string } }[],
): string[] {
  return requests
    .filter((r) => r.answer.kind !== 'preflight' && r.answer.kind !== 'side')
    .map(
      (r) =>
        `${r.answer.kind}${r.answer.turn !== undefined ? ` ${r.answer.turn}` : ''}${r.answer.fault ? ` (${r.answer.fault})` : ''}`,
    );
}
