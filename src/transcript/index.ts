// The transcript layer: one normalized model, one pure parser per agent stream format.
export * from './model.js';
export { AcpMapper, createAcpMapper } from './acp.js';
export { createAxisNdjsonParser, createTextParser } from './axis-ndjson.js';
export { createClaudeParser, type ClaudeParserOptions } from './claude.js';
export {
  classifyError,
  classFromCode,
  classFromMessage,
  classFromStatus,
  ERROR_CLASSES,
  isErrorClass,
  statusFromText,
  type ErrorFacts,
} from './classify-error.js';
export { createCodexParser } from './codex.js';
export { mergeCodexRollout } from './codex-merge.js';
export { parseCodexRollout } from './codex-rollout.js';
export { createGeminiParser, parseGeminiJson } from './gemini.js';
export { createOpencodeParser } from './opencode.js';
export { createQwenParser } from './qwen.js';
export { isStreamFormat, parserFor, STREAM_FORMATS, type StreamFormat } from './registry.js';

import type { ParsedStream, StreamParser } from './model.js';

/** Feed a whole captured stdout to a parser (for saved transcripts and tests). */
export function parseAll(parser: StreamParser, text: string, receivedAt?: number): ParsedStream {
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    parser.push(text.slice(start, end), receivedAt);
    start = end + 1;
  }
  return parser.finish();
}
