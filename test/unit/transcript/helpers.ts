import { readFileSync } from 'node:fs';
import { parseAll, parserFor } from '../../../src/transcript/index.js';
import type { ParsedStream, StreamParser, TranscriptEvent } from '../../../src/transcript/model.js';

/** A real CLI transcript from test/fixtures/agent-cli-samples/. */
export function sample(name: string): string {
  return readFileSync(new URL(`../../fixtures/agent-cli-samples/${name}`, import.meta.url), 'utf8');
}

/** A synthetic transcript from test/fixtures/transcripts/. */
export function synthetic(name: string): string {
  return readFileSync(new URL(`../../fixtures/transcripts/${name}`, import.meta.url), 'utf8');
}

export function parse(format: string, text: string, receivedAt?: number): ParsedStream {
  return parseAll(parserFor(format), text, receivedAt);
}

/** Events without timestamps, for comparing shapes. */
export function shapes(events: TranscriptEvent[]): Array<Record<string, unknown>> {
  return events.map((e) => {
    const { ts: _ts, tsSource: _src, ...rest } = e;
    return rest;
  });
}

/** Push lines one by one, recording usage() after each. */
export function usageTrace(parser: StreamParser, text: string): Array<ReturnType<StreamParser['usage']>> {
  const trace = [];
  for (const line of text.split('\n')) {
    parser.push(line, 1);
    trace.push(parser.usage());
  }
  return trace;
}
