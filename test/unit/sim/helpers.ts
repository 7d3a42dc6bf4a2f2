/** Plain-HTTP helpers for simulator tests: real server on 127.0.0.1, real fetch. */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { startSimulator, type Simulator, type Tape } from '../../../src/sim/index.js';
import type { OfferedTool } from '../../../src/sim/types.js';

export type CliName = 'claude' | 'codex' | 'gemini' | 'qwen' | 'opencode';

/** Tools each pinned CLI really offered (recorded from live requests; see the fixture's _comment). */
export const OFFERED: Record<CliName, OfferedTool[]> = JSON.parse(
  readFileSync(new URL('./fixtures/offered-tools.json', import.meta.url), 'utf8'),
);

export async function withSim<T>(tape: Tape, fn: (sim: Simulator) => Promise<T>): Promise<T> {
  const sim = await startSimulator({ tape });
  try {
    return await fn(sim);
  } finally {
    await sim.close();
  }
}

export async function post(
  sim: Simulator,
  path: string,
  body: unknown,
): Promise<{ status: number; text: string; json: () => unknown }> {
  const res = await fetch(`${sim.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

export interface Frame {
  event?: string;
  data: string;
}

/** Splits an SSE body into frames (data left as text so malformed JSON can be asserted). */
export function parseSse(text: string): Frame[] {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => {
      const frame: Frame = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) frame.event = line.slice(7);
        if (line.startsWith('data: ')) frame.data += line.slice(6);
      }
      return frame;
    });
}

/** Every frame's data parsed as JSON (the `[DONE]` sentinel dropped). */
export function sseJson(text: string): Record<string, unknown>[] {
  return parseSse(text)
    .filter((f) => f.data !== '[DONE]')
    .map((f) => JSON.parse(f.data) as Record<string, unknown>);
}

/** Raw HTTP POST that reports partial bytes and whether the connection broke before the response ended. */
export function rawPost(
  url: string,
  body: unknown,
): Promise<{ status: number; text: string; broken: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      let broken = false;
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('aborted', () => (broken = true));
      res.on('error', () => (broken = true));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text, broken: broken || !res.complete }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Request bodies in each provider's shape. `results` are tool results after a model turn with `calls`. */
export const bodies = {
  anthropic(
    opts: {
      tools?: OfferedTool[];
      turns?: {
        calls: { id: string; name: string }[];
        results: { id: string; output: string; isError?: boolean }[];
      }[];
      stream?: boolean;
      system?: string;
      user?: string;
    } = {},
  ) {
    const messages: unknown[] = [{ role: 'user', content: opts.user ?? 'Do the task.' }];
    for (const t of opts.turns ?? []) {
      messages.push({
        role: 'assistant',
        content: t.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: {} })),
      });
      messages.push({
        role: 'user',
        content: t.results.map((r) => ({
          type: 'tool_result',
          tool_use_id: r.id,
          content: r.output,
          is_error: r.isError ?? false,
        })),
      });
    }
    return {
      model: 'claude-test',
      max_tokens: 100,
      stream: opts.stream ?? false,
      ...(opts.system ? { system: opts.system } : {}),
      messages,
      tools: (
        opts.tools ?? [
          {
            name: 'Bash',
            schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
          },
        ]
      ).map((t) => ({
        name: t.name,
        input_schema: t.schema,
      })),
    };
  },
  chat(
    opts: {
      tools?: OfferedTool[];
      messages?: unknown[];
      stream?: boolean;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    return {
      model: 'gpt-test',
      stream: opts.stream ?? false,
      messages: opts.messages ?? [{ role: 'user', content: 'Do the task.' }],
      ...(opts.tools
        ? {
            tools: opts.tools.map((t) => ({
              type: 'function',
              function: { name: t.name, parameters: t.schema },
            })),
          }
        : {}),
      ...opts.extra,
    };
  },
};
