/**
 * Qwen Code `-p --output-format stream-json`: the same line format as Claude Code, so the Claude parser
 * does the work. The `qwen` flavor adds what differs: a run that exits 0 with `result: "[API Error: 500 …]"`
 * is an API error (classed by the status in the text), and shell results may carry "Exit Code: N" lines.
 */
import { createClaudeParser } from './claude.js';
import type { StreamParser } from './model.js';

export function createQwenParser(): StreamParser {
  return createClaudeParser({ flavor: 'qwen' });
}
