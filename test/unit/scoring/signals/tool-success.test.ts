import { describe, expect, it } from 'vitest';
import { toolSuccess } from '../../../../src/scoring/signals/tool-success.js';
import type { ClassifiedInteraction } from '../../../../src/scoring/types.js';
import { call, classified, error, text, toolIx } from '../helpers.js';

const value = (ix: ClassifiedInteraction) => toolSuccess.evaluate([ix]).values[0];

describe('tool-success', () => {
  it('has Lighthouse-style metadata', () => {
    expect(toolSuccess.meta).toMatchObject({ id: 'tool-success', field: 'success' });
    expect(toolSuccess.meta.title).not.toBe('');
    expect(toolSuccess.meta.description).not.toBe('');
  });

  it('scores unambiguous failures 0', () => {
    expect(
      value(toolIx('Bash', { command: 'rm x' }, { permissionDenied: true, isError: true })),
    ).toMatchObject({
      value: 0,
      unambiguous: true,
      evidence: 'permission denied',
    });
    expect(value(toolIx('WebFetch', { url: 'u' }, { httpStatus: 503 }))).toMatchObject({
      value: 0,
      unambiguous: true,
      evidence: 'HTTP 503',
    });
    expect(value(toolIx('Read', { file_path: 'nope' }, { isError: true }))).toMatchObject({
      value: 0,
      unambiguous: true,
    });
    expect(value(toolIx('Bash', { command: 'nosuchcmd' }, { exitCode: 127 }))).toMatchObject({
      value: 0,
      unambiguous: true,
      evidence: 'exit code 127: command not found',
    });
    expect(value(toolIx('Bash', { command: 'x' }, { exitCode: 126 }))).toMatchObject({
      value: 0,
      unambiguous: true,
    });
    expect(value(toolIx('Bash', { command: 'sleep 9' }, { exitCode: 128 + 9 }))).toMatchObject({
      value: 0,
      unambiguous: true,
      evidence: `exit code ${128 + 9}: killed by signal 9`,
    });
  });

  it('leaves other non-zero exit codes to a judge, with 0 as the best guess', () => {
    expect(value(toolIx('Bash', { command: 'npm test' }, { exitCode: 1, isError: true }))).toMatchObject({
      value: 0,
      unambiguous: false,
    });
  });

  it('reads exit code 1 of grep/diff/test as "no match", not a failure, but still asks a judge', () => {
    expect(value(toolIx('Bash', { command: 'grep -r TODO src' }, { exitCode: 1 }))).toMatchObject({
      value: 1,
      unambiguous: false,
    });
    expect(value(toolIx('exec_command', { cmd: 'cd x && diff a b' }, { exitCode: 1 }))).toMatchObject({
      value: 1,
    });
    expect(value(toolIx('Bash', { command: 'grep x y' }, { exitCode: 2 }))).toMatchObject({
      value: 0,
      unambiguous: false,
    });
  });

  it('scores success 1, unambiguous only when something vouches for it', () => {
    expect(value(toolIx('Bash', { command: 'ls' }, { exitCode: 0 }))).toMatchObject({
      value: 1,
      unambiguous: true,
    });
    expect(value(toolIx('WebFetch', { url: 'u' }, { httpStatus: 200 }))).toMatchObject({
      value: 1,
      unambiguous: true,
    });
    expect(value(toolIx('Read', { file_path: 'a' }))).toMatchObject({ value: 1, unambiguous: true });
    // A shell call with no exit code may hide a failure in its output (Gemini reports exit codes only as text).
    expect(value(toolIx('run_shell_command', { command: 'make' }))).toMatchObject({
      value: 1,
      unambiguous: false,
    });
  });

  it('does not score a call that got no result', () => {
    const [ix] = classified([call('a', 'Bash', { command: 'sleep 100' })]);
    expect(value(ix!)).toMatchObject({ value: null, unambiguous: false });
  });

  it('scores agent error events 0 and skips reasoning', () => {
    const list = classified([text('hi'), error('overloaded', { errorClass: 'api_error' })]);
    const values = toolSuccess.evaluate(list).values;
    expect(values).toHaveLength(1);
    expect(values[0]).toMatchObject({
      interactionId: 2,
      value: 0,
      unambiguous: true,
      evidence: 'api_error: overloaded',
    });
  });
});
