import { describe, expect, it } from 'vitest';
import { createCodexParser } from '../../../src/transcript/codex.js';
import { parse, sample, shapes, synthetic } from './helpers.js';

const DONE = 'Done: I created out.txt containing "hello" and listed the directory.';
const METADATA_WARNING = {
  kind: 'system',
  subtype: 'warning',
  data: {
    message:
      'Model metadata for `fake-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.',
  },
};

describe('codex exec --json (real samples)', () => {
  it('codex-exec: shell call and result, last agent_message is the result', () => {
    const p = parse('codex', sample('codex-exec.ndjson'), 5);
    expect(shapes(p.events)).toEqual([
      METADATA_WARNING,
      { kind: 'text', text: 'I will create the file with a shell command.' },
      {
        kind: 'tool_call',
        id: 'item_2',
        name: 'shell',
        input: { command: "/bin/bash -lc 'echo hello > out.txt && ls'" },
      },
      { kind: 'tool_result', callId: 'item_2', output: 'out.txt\n', isError: false, exitCode: 0 },
      { kind: 'text', text: DONE },
    ]);
    expect(p.events.every((e) => e.ts === 5 && e.tsSource === 'received')).toBe(true);
    expect(p.result).toBe(DONE);
    expect(p.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(p.sessionId).toBe('01a22a4a-de37-7471-b50b-01bc81e333c5');
    expect(p.costUsd).toBeUndefined();
    expect(p.error).toBeUndefined();
  });

  it('codex-exec-failed-command: exit code 2 and status failed → isError', () => {
    const p = parse('codex', sample('codex-exec-failed-command.ndjson'));
    expect(shapes(p.events.filter((e) => e.kind === 'tool_call' || e.kind === 'tool_result'))).toEqual([
      {
        kind: 'tool_call',
        id: 'item_2',
        name: 'shell',
        input: { command: "/bin/bash -lc 'ls /nonexistent'" },
      },
      {
        kind: 'tool_result',
        callId: 'item_2',
        output: "ls: cannot access '/nonexistent': No such file or directory\n",
        isError: true,
        exitCode: 2,
      },
    ]);
    expect(p.result).toBe(DONE);
  });

  it('codex-exec-http500: reconnect notice and failure are error events; turn.failed sets the run error', () => {
    const p = parse('codex', sample('codex-exec-http500.ndjson'));
    const demand = 'We’re currently experiencing high demand, which may cause temporary errors.';
    expect(shapes(p.events)).toEqual([
      METADATA_WARNING,
      { kind: 'error', message: `Reconnecting... 1/1 (${demand})`, errorClass: 'api_error' },
      { kind: 'error', message: demand, errorClass: 'api_error' },
    ]);
    expect(p.error).toEqual({ class: 'api_error', message: demand });
    expect(p.result).toBeNull();
    expect(p.usage).toEqual({ input: 0, output: 0, cacheReadInput: 0 });
  });

  it('codex-exec-readonly-sandbox: no command_execution item at all (see the rollout merge)', () => {
    const p = parse('codex', sample('codex-exec-readonly-sandbox.ndjson'));
    expect(p.events.map((e) => e.kind)).toEqual(['system', 'text', 'text']);
    expect(p.result).toBe(DONE);
  });
});

describe('codex exec --json (synthetic item types)', () => {
  const p = parse('codex', synthetic('codex-items.ndjson'));

  it('maps reasoning, todo_list, file_change, mcp_tool_call, web_search and declined commands', () => {
    expect(shapes(p.events)).toEqual([
      { kind: 'thinking', text: '**Planning** the change first.' },
      {
        kind: 'tool_call',
        id: 'item_1#1',
        name: 'update_plan',
        input: {
          items: [
            { text: 'Edit files', completed: false },
            { text: 'Run tests', completed: false },
          ],
        },
      },
      { kind: 'tool_result', callId: 'item_1#1', output: 'Plan updated', isError: false },
      {
        kind: 'tool_call',
        id: 'item_2',
        name: 'apply_patch',
        input: {
          changes: [
            { path: 'src/a.ts', kind: 'update' },
            { path: 'src/b.ts', kind: 'add' },
          ],
        },
      },
      { kind: 'tool_result', callId: 'item_2', output: 'update: src/a.ts\nadd: src/b.ts', isError: false },
      {
        kind: 'tool_call',
        id: 'item_1#2',
        name: 'update_plan',
        input: {
          items: [
            { text: 'Edit files', completed: true },
            { text: 'Run tests', completed: false },
          ],
        },
      },
      { kind: 'tool_result', callId: 'item_1#2', output: 'Plan updated', isError: false },
      { kind: 'tool_call', id: 'item_3', name: 'mcp__docs__search', input: { q: 'deploy api' } },
      { kind: 'tool_result', callId: 'item_3', output: '3 results', isError: false },
      { kind: 'tool_call', id: 'item_4', name: 'mcp__docs__fetch', input: { id: 7 } },
      { kind: 'tool_result', callId: 'item_4', output: 'upstream returned 404', isError: true },
      {
        kind: 'tool_call',
        id: 'item_5',
        name: 'web_search',
        input: { query: 'codex exec json', action: { type: 'search', query: 'codex exec json' } },
      },
      { kind: 'tool_result', callId: 'item_5', output: '', isError: false },
      { kind: 'tool_call', id: 'item_6', name: 'shell', input: { command: "/bin/bash -lc 'rm -rf /'" } },
      { kind: 'tool_result', callId: 'item_6', output: '', isError: true, permissionDenied: true },
      { kind: 'tool_call', id: 'item_7', name: 'shell', input: { command: "/bin/bash -lc 'npm test'" } },
      { kind: 'tool_result', callId: 'item_7', output: 'ok\n', isError: false, exitCode: 0 },
      { kind: 'text', text: 'Edited two files; tests pass.' },
    ]);
  });

  it('usage: cached input is kept apart from input; output includes reasoning', () => {
    expect(p.usage).toEqual({ input: 1000, output: 300, cacheReadInput: 4000 });
    expect(p.result).toBe('Edited two files; tests pass.');
  });

  it('turn.completed usage is thread-cumulative: the latest replaces, never adds', () => {
    const parser = createCodexParser();
    parser.push(
      '{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10}}',
    );
    parser.push(
      '{"type":"turn.completed","usage":{"input_tokens":250,"cached_input_tokens":50,"output_tokens":30}}',
    );
    expect(parser.usage()).toEqual({ input: 200, output: 30, cacheReadInput: 50 });
    expect(parser.finish().usage).toEqual({ input: 200, output: 30, cacheReadInput: 50 });
  });

  it('a run without turn.completed has no result', () => {
    const text = sample('codex-exec.ndjson').split('\n').slice(0, 6).join('\n');
    const out = parse('codex', text);
    expect(out.result).toBeNull();
    expect(out.events.filter((e) => e.kind === 'tool_result')).toHaveLength(1);
  });

  it('a fatal top-level error without turn.failed still sets the run error', () => {
    const out = parse(
      'codex',
      '{"type":"error","message":"stream disconnected before completion: error sending request"}',
    );
    expect(out.error).toEqual({
      class: 'network',
      message: 'stream disconnected before completion: error sending request',
    });
  });
});
