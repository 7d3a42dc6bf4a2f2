import { describe, expect, it } from 'vitest';
import { mergeCodexRollout } from '../../../src/transcript/codex-merge.js';
import { parseCodexRollout, patchChanges } from '../../../src/transcript/codex-rollout.js';
import { shellScript, shellWords } from '../../../src/transcript/util.js';
import { parse, sample, shapes, synthetic } from './helpers.js';

const DONE = 'Done: I created out.txt containing "hello" and listed the directory.';

describe('codex rollout file', () => {
  it('codex-rollout.jsonl: events with the agent timestamps, exit code from the exec item, usage, model', () => {
    const r = parseCodexRollout(sample('codex-rollout.jsonl'));
    expect(r.events).toEqual([
      { kind: 'user', text: 'create out.txt', ts: Date.parse('2026-11-30T02:23:45.904Z'), tsSource: 'agent' },
      {
        kind: 'text',
        text: 'I will create the file with a shell command.',
        ts: Date.parse('2026-11-30T02:23:45.949Z'),
        tsSource: 'agent',
      },
      {
        kind: 'tool_call',
        id: 'call_fake_1',
        name: 'shell',
        input: { command: 'echo hello > out.txt && ls' },
        ts: Date.parse('2026-11-30T02:23:45.951Z'),
        tsSource: 'agent',
      },
      {
        kind: 'tool_result',
        callId: 'call_fake_1',
        output: 'out.txt\n',
        isError: false,
        exitCode: 0,
        ts: Date.parse('2026-11-30T02:23:46.048Z'),
        tsSource: 'agent',
      },
      { kind: 'text', text: DONE, ts: Date.parse('2026-11-30T02:23:46.077Z'), tsSource: 'agent' },
    ]);
    expect(r.result).toBe(DONE);
    expect(r.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(r.sessionId).toBe('01a22a43-f214-73a0-9e64-6c8d7b42cff0');
    expect(r.model).toBe('fake-model');
    expect(r.agentDurationMs).toBe(305);
  });

  it('reads exit code and output from the "Process exited with code N" text when no exec item exists', () => {
    const lines = [
      {
        timestamp: '2026-11-30T00:00:00.000Z',
        type: 'response_item',
        payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"false"}', call_id: 'c9' },
      },
      {
        timestamp: '2026-11-30T00:00:01.000Z',
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: 'c9',
          output: 'Chunk ID: x\nProcess exited with code 1\nOriginal token count: 0\nOutput:\nnope\n',
        },
      },
    ];
    const r = parseCodexRollout(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(shapes(r.events)).toEqual([
      { kind: 'tool_call', id: 'c9', name: 'shell', input: { command: 'false' } },
      { kind: 'tool_result', callId: 'c9', output: 'nope\n', isError: true, exitCode: 1 },
    ]);
  });

  it("reads the exit code from Codex's header only, never from the command's output", () => {
    // A command still running has no exit line in the header; its output may print one.
    const output =
      'Chunk ID: x\nProcess running with session ID 7\nOriginal token count: 9\nOutput:\n3 failed\nProcess exited with code 0\n';
    const lines = [
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'exec_command',
          arguments: '{"cmd":"npm test"}',
          call_id: 'c1',
        },
      },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output } },
    ];
    const r = parseCodexRollout(lines.map((l) => JSON.stringify(l)).join('\n'));
    const res = r.events.find((e) => e.kind === 'tool_result');
    expect(res && res.kind === 'tool_result' && res.exitCode).toBeUndefined();
  });

  it('maps apply_patch custom calls and update_plan like exec --json does', () => {
    const lines = [
      {
        type: 'response_item',
        payload: {
          type: 'custom_tool_call',
          name: 'apply_patch',
          call_id: 'p1',
          input: '*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+z\n*** End Patch',
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'custom_tool_call_output',
          call_id: 'p1',
          output: 'Success. Updated the following files:\nM a.ts\nA b.ts',
        },
      },
      {
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'update_plan',
          call_id: 'u1',
          arguments: '{"plan":[{"step":"Edit","status":"completed"},{"step":"Test","status":"pending"}]}',
        },
      },
    ];
    const r = parseCodexRollout(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(shapes(r.events)).toEqual([
      {
        kind: 'tool_call',
        id: 'p1',
        name: 'apply_patch',
        input: {
          changes: [
            { path: 'a.ts', kind: 'update' },
            { path: 'b.ts', kind: 'add' },
          ],
        },
      },
      {
        kind: 'tool_result',
        callId: 'p1',
        output: 'Success. Updated the following files:\nM a.ts\nA b.ts',
        isError: false,
      },
      {
        kind: 'tool_call',
        id: 'u1',
        name: 'update_plan',
        input: {
          items: [
            { text: 'Edit', completed: true },
            { text: 'Test', completed: false },
          ],
        },
      },
    ]);
  });

  it('patchChanges and shellScript', () => {
    expect(patchChanges('*** Delete File: old.txt\n*** Update File: src/x.ts')).toEqual([
      { path: 'old.txt', kind: 'delete' },
      { path: 'src/x.ts', kind: 'update' },
    ]);
    expect(shellScript("/bin/bash -lc 'echo hello > out.txt && ls'")).toBe('echo hello > out.txt && ls');
    expect(shellScript("bash -c 'it'\\''s'")).toBe("it's");
    expect(shellScript('npm test')).toBe('npm test');
  });

  it('shellScript reads the sectioned quoting Codex prints for scripts with quotes', () => {
    // As `codex exec --json` printed it (captured from the pinned CLI against the simulator).
    const printed = `/bin/bash -lc "grep -c 'hello' out.txt; echo \\"it's\\" > b.txt; echo "'\`pwd\` $HOME'`;
    expect(shellScript(printed)).toBe(`grep -c 'hello' out.txt; echo "it's" > b.txt; echo \`pwd\` $HOME`);
    expect(shellScript(`bash -lc 'a'"'"'b'`)).toBe(`a'b`);
    expect(shellScript(`bash -lc "x \\$y \\\\ z"`)).toBe('x $y \\ z');
    expect(shellWords(`a 'b c' "d \\"e\\"" f\\ g`)).toEqual(['a', 'b c', 'd "e"', 'f g']);
    expect(shellWords(`'open`)).toBeNull();
  });

  it('shellWords splits as a character-by-character reading does, on any mix of quotes and escapes', () => {
    // The plain reading shellWords had before it took runs of plain characters in one slice.
    const reference = (line: string): string[] | null => {
      const words: string[] = [];
      let cur = '';
      let inWord = false;
      for (let i = 0; i < line.length;) {
        const c = line[i]!;
        if (c === "'") {
          const end = line.indexOf("'", i + 1);
          if (end < 0) return null;
          cur += line.slice(i + 1, end);
          i = end + 1;
          inWord = true;
        } else if (c === '"') {
          let j = i + 1;
          let text = '';
          for (; j < line.length && line[j] !== '"'; j++) {
            if (line[j] === '\\' && j + 1 < line.length && '$`"\\\n'.includes(line[j + 1]!)) {
              if (line[j + 1] !== '\n') text += line[j + 1];
              j++;
            } else text += line[j];
          }
          if (j >= line.length) return null;
          cur += text;
          i = j + 1;
          inWord = true;
        } else if (c === '\\') {
          if (i + 1 < line.length && line[i + 1] !== '\n') cur += line[i + 1];
          i += 2;
          inWord = true;
        } else if (/\s/.test(c)) {
          if (inWord) words.push(cur);
          cur = '';
          inWord = false;
          i++;
        } else {
          cur += c;
          inWord = true;
          i++;
        }
      }
      if (inWord) words.push(cur);
      return words;
    };
    const alphabet = ['a', 'bc', ' ', '  ', '\t', '\n', "'", '"', '\\', 'é', '$', '`', '\u00a0', '→'];
    let seed = 7;
    for (let n = 0; n < 3000; n++) {
      let line = '';
      const length = n % 24;
      for (let k = 0; k < length; k++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        line += alphabet[seed % alphabet.length];
      }
      expect(shellWords(line), JSON.stringify(line)).toEqual(reference(line));
    }
  });
});

describe('mergeCodexRollout', () => {
  it('fills in the shell call that exec --json left out in the read-only sandbox', () => {
    const json = parse('codex', sample('codex-exec-readonly-sandbox.ndjson'));
    const rollout = parseCodexRollout(synthetic('codex-rollout-readonly.jsonl'));
    const merged = mergeCodexRollout(json, rollout);
    expect(shapes(merged.events)).toEqual([
      expect.objectContaining({ kind: 'system', subtype: 'warning' }),
      { kind: 'text', text: 'I will create the file with a shell command.' },
      {
        kind: 'tool_call',
        id: 'call_fake_1',
        name: 'shell',
        input: { command: 'echo hello > out.txt && ls' },
      },
      {
        kind: 'tool_result',
        callId: 'call_fake_1',
        output: '/bin/bash: line 1: out.txt: Read-only file system\n',
        isError: true,
        exitCode: 1,
      },
      { kind: 'text', text: DONE },
    ]);
    // The inserted events keep the rollout's own timestamps.
    expect(merged.events[2]).toMatchObject({ tsSource: 'agent' });
    expect(merged.result).toBe(DONE);
    expect(merged.usage).toEqual({ input: 200, output: 50, cacheReadInput: 0 });
    expect(merged.sessionId).toBe('01a22a44-37f5-75b1-aa7d-3e1954ba6743');
    expect(merged.model).toBe('fake-model');
    expect(merged.agentDurationMs).toBe(305);
  });

  it('does not duplicate a call present in both (wrapper and ids differ)', () => {
    const json = parse('codex', sample('codex-exec.ndjson'));
    const merged = mergeCodexRollout(json, parseCodexRollout(sample('codex-rollout.jsonl')));
    expect(merged.events).toEqual(json.events);
    expect(merged.events.filter((e) => e.kind === 'tool_call')).toHaveLength(1);
  });

  it('does not duplicate a shell call whose command contains quotes (sectioned /bin/bash -lc "…" wrapper)', () => {
    const json = parse('codex', synthetic('codex-quoted-command.ndjson'));
    const rollout = parseCodexRollout(synthetic('codex-quoted-command.rollout.jsonl'));
    const merged = mergeCodexRollout(json, rollout);
    expect(merged.events.filter((e) => e.kind === 'tool_call')).toHaveLength(1);
    expect(merged.events).toEqual(json.events);
  });

  it('inserts at the start when nothing earlier is shared, and keeps a --json error', () => {
    const json = parse('codex', sample('codex-exec-http500.ndjson'));
    const rollout = parseCodexRollout(
      JSON.stringify({
        type: 'response_item',
        payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'c1' },
      }),
    );
    const merged = mergeCodexRollout(json, rollout);
    expect(merged.events[0]).toMatchObject({ kind: 'tool_call', id: 'c1', name: 'shell' });
    expect(merged.error).toEqual(json.error);
    expect(merged.result).toBeNull();
  });

  it('an MCP call inside its server namespace reads mcp__<server>__<tool> and is not doubled by the --json item', () => {
    const line = (type: string, payload: object) =>
      JSON.stringify({ timestamp: '2026-12-01T10:00:00.000Z', type, payload });
    const rollout = parseCodexRollout(
      [
        line('response_item', {
          type: 'function_call',
          name: 'echo',
          namespace: 'mcp__docs',
          arguments: '{"text":"ping"}',
          call_id: 'call_sim_1',
        }),
        line('response_item', { type: 'function_call_output', call_id: 'call_sim_1', output: 'echo: ping' }),
      ].join('\n'),
    );
    expect(rollout.events[0]).toMatchObject({
      kind: 'tool_call',
      name: 'mcp__docs__echo',
      input: { text: 'ping' },
    });
    const json = parse(
      'codex',
      [
        '{"type":"thread.started","thread_id":"t1"}',
        '{"type":"item.started","item":{"id":"item_1","type":"mcp_tool_call","server":"docs","tool":"echo","arguments":{"text":"ping"},"status":"in_progress"}}',
        '{"type":"item.completed","item":{"id":"item_1","type":"mcp_tool_call","server":"docs","tool":"echo","arguments":{"text":"ping"},"result":{"content":[{"type":"text","text":"echo: ping"}]},"status":"completed"}}',
      ].join('\n'),
    );
    const merged = mergeCodexRollout(json, rollout);
    expect(merged.events.filter((e) => e.kind === 'tool_call')).toEqual([
      expect.objectContaining({ id: 'item_1', name: 'mcp__docs__echo' }),
    ]);
  });
});
