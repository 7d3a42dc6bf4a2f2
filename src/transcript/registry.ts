/** Which parser reads which agent's stdout. */
import { createAcpMapper } from './acp.js';
import { createAxisNdjsonParser, createTextParser } from './axis-ndjson.js';
import { createClaudeParser } from './claude.js';
import { createCodexParser } from './codex.js';
import { createGeminiParser } from './gemini.js';
import type { StreamParser } from './model.js';
import { createOpencodeParser } from './opencode.js';
import { createQwenParser } from './qwen.js';

export const STREAM_FORMATS = [
  'claude',
  'qwen',
  'codex',
  'gemini',
  'opencode',
  'acp',
  'ndjson',
  'text',
] as const;
export type StreamFormat = (typeof STREAM_FORMATS)[number];

const FACTORIES: Record<StreamFormat, () => StreamParser> = {
  claude: () => createClaudeParser(),
  qwen: createQwenParser,
  codex: createCodexParser,
  gemini: createGeminiParser,
  opencode: createOpencodeParser,
  acp: createAcpMapper,
  ndjson: createAxisNdjsonParser,
  text: createTextParser,
};

/** Agent names that read as a format. */
const ALIASES: Record<string, StreamFormat> = {
  'claude-code': 'claude',
  'qwen-code': 'qwen',
  'gemini-cli': 'gemini',
  'axis-ndjson': 'ndjson',
};

export function isStreamFormat(kind: string): kind is StreamFormat {
  return (STREAM_FORMATS as readonly string[]).includes(kind);
}

/** A fresh parser for a format (or an agent name such as `claude-code`). Throws on an unknown kind. */
export function parserFor(kind: string): StreamParser {
  const format = isStreamFormat(kind) ? kind : ALIASES[kind];
  if (!format) {
    throw new Error(`No transcript parser for "${kind}" (expected one of: ${STREAM_FORMATS.join(', ')})`);
  }
  return FACTORIES[format]();
}
