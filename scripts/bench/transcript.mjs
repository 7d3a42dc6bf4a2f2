// Transcript parser throughput: each parser reads a ~20 MB synthetic stream in its own format.
// Imports the built parsers from dist/ (run `npm run build` first, or use `npm run bench`).
// Run alone: `node scripts/bench/transcript.mjs`.
import { Buffer } from 'node:buffer';
import { pathToFileURL } from 'node:url';

export const name = 'transcript parsers (20 MB synthetic stream each)';

const TARGET_BYTES = 20 * 1024 * 1024;
const OUTPUT = 'line of tool output that is fairly typical in length for a build log\n'.repeat(30);

/** One turn of each format: a text, a tool call and its ~2 KB result, plus usage where the format has it. */
const TURNS = {
  claude: (i) => [
    {
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'm',
        content: [{ type: 'text', text: `Step ${i}: running the build.` }],
        usage: { input_tokens: 100, output_tokens: 20 },
      },
      session_id: 's',
    },
    {
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'm',
        content: [{ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: { command: `make step-${i}` } }],
        usage: { input_tokens: 100, output_tokens: 20 },
      },
      session_id: 's',
    },
    {
      type: 'user',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: OUTPUT, is_error: i % 7 === 0 }],
      },
      timestamp: '2026-11-30T10:00:00.000Z',
      session_id: 's',
    },
  ],
  codex: (i) => [
    {
      type: 'item.completed',
      item: { id: `item_${3 * i}`, type: 'agent_message', text: `Step ${i}: running the build.` },
    },
    {
      type: 'item.started',
      item: {
        id: `item_${3 * i + 1}`,
        type: 'command_execution',
        command: `/bin/bash -lc 'make step-${i}'`,
        aggregated_output: '',
        exit_code: null,
        status: 'in_progress',
      },
    },
    {
      type: 'item.completed',
      item: {
        id: `item_${3 * i + 1}`,
        type: 'command_execution',
        command: `/bin/bash -lc 'make step-${i}'`,
        aggregated_output: OUTPUT,
        exit_code: i % 7 === 0 ? 2 : 0,
        status: 'completed',
      },
    },
  ],
  gemini: (i) => [
    {
      type: 'message',
      timestamp: '2026-11-30T10:00:00.000Z',
      role: 'assistant',
      content: `Step ${i}: `,
      delta: true,
    },
    {
      type: 'message',
      timestamp: '2026-11-30T10:00:00.001Z',
      role: 'assistant',
      content: 'running the build.',
      delta: true,
    },
    {
      type: 'tool_use',
      timestamp: '2026-11-30T10:00:00.002Z',
      tool_name: 'run_shell_command',
      tool_id: `sh_${i}`,
      parameters: { command: `make step-${i}` },
    },
    {
      type: 'tool_result',
      timestamp: '2026-11-30T10:00:00.003Z',
      tool_id: `sh_${i}`,
      status: 'success',
      output: `${OUTPUT}Exit Code: 0`,
    },
  ],
  opencode: (i) => [
    {
      type: 'text',
      timestamp: 1796000000000 + i,
      sessionID: 's',
      part: {
        messageID: `m${i}`,
        type: 'text',
        text: `Step ${i}: running the build.`,
        time: { start: 1796000000000 + i, end: 1796000000001 + i },
      },
    },
    {
      type: 'tool_use',
      timestamp: 1796000000002 + i,
      sessionID: 's',
      part: {
        type: 'tool',
        tool: 'bash',
        callID: `c${i}`,
        state: {
          status: 'completed',
          input: { command: `make step-${i}` },
          output: OUTPUT,
          metadata: { exit: 0 },
          time: { start: 1796000000000 + i, end: 1796000000002 + i },
        },
      },
    },
    {
      type: 'step_finish',
      timestamp: 1796000000003 + i,
      sessionID: 's',
      part: {
        reason: 'tool-calls',
        tokens: { input: 100, output: 20, reasoning: 0, cache: { read: 0, write: 0 } },
        cost: 0.001,
      },
    },
  ],
  acp: (i) => [
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's',
        update: {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `Step ${i}: running the build.` },
        },
      },
    },
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `t${i}`,
          title: `make step-${i}`,
          kind: 'execute',
          status: 'pending',
          rawInput: { command: `make step-${i}` },
        },
      },
    },
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: {
        sessionId: 's',
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: `t${i}`,
          status: 'completed',
          content: [{ type: 'content', content: { type: 'text', text: OUTPUT } }],
        },
      },
    },
  ],
  ndjson: (i) => [
    { type: 'text', text: `Step ${i}: running the build.` },
    { type: 'tool_call', id: `c${i}`, name: 'shell', input: { command: `make step-${i}` } },
    { type: 'tool_result', id: `c${i}`, output: OUTPUT, exit_code: 0 },
    { type: 'usage', input: 100, output: 20 },
  ],
};
TURNS.qwen = TURNS.claude;

function stream(format) {
  if (format === 'text') {
    const lines = OUTPUT.split('\n');
    const out = [];
    let bytes = 0;
    while (bytes < TARGET_BYTES) {
      for (const l of lines) {
        out.push(l);
        bytes += l.length + 1;
      }
    }
    return { lines: out, bytes };
  }
  const lines = [];
  let bytes = 0;
  for (let i = 0; bytes < TARGET_BYTES; i++) {
    for (const obj of TURNS[format](i)) {
      const line = JSON.stringify(obj);
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
  }
  return { lines, bytes };
}

function measure(parserFor, format) {
  const { lines, bytes } = stream(format);
  let best = Infinity;
  let events = 0;
  for (let run = 0; run < 3; run++) {
    const parser = parserFor(format);
    const start = process.hrtime.bigint();
    for (const line of lines) {
      parser.push(line, 1);
      parser.usage();
    }
    events = parser.finish().events.length;
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { mb: bytes / 1024 / 1024, ms: best, events };
}

export default async function run() {
  const { parserFor, STREAM_FORMATS } = await import('../../dist/transcript/index.js');
  const rows = [];
  for (const format of STREAM_FORMATS) {
    const { mb, ms, events } = measure(parserFor, format);
    rows.push({
      label: `${format}: ${mb.toFixed(1)} MB, ${events} events, ${ms.toFixed(0)} ms`,
      value: `${(mb / (ms / 1000)).toFixed(0)} MB/s`,
      target: '20 MB well under 1 s (> 40 MB/s)',
    });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run()) console.log(`${row.label.padEnd(58)} ${String(row.value).padStart(10)}`);
}
