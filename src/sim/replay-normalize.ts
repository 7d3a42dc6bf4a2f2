/**
 * The rule replay uses to decide whether a tool result "is the same" as the recorded one: volatile
 * parts (working directory, temp paths, ids, PIDs, timestamps, durations) are masked, whitespace is
 * collapsed. Documented in docs/simulator.md ("Divergence"); keep the two in step.
 */
import { tmpdir } from 'node:os';
import { escapeRegExp as escape } from '../util/regexp.js';

// Stops at characters that end a path in typical tool output.
const PATH_TAIL = `[^\\s'"\`:;,)\\]}>]*`;
const TEMP_ROOTS = ['/private/var/folders', '/var/folders', '/private/tmp', '/var/tmp', '/tmp'];

const RULES: [RegExp, string][] = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/\b(pgid|pid|process id|session id|chunk id)(\s*[:=#]?\s*)[0-9a-f]+\b/gi, '$1$2<id>'],
  [/\b1\d{9}(?:\d{3})?\b/g, '<time>'],
  [/\b\d+m\d+(?:\.\d+)?s\b/g, '<duration>'],
  [/\b\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?|us|µs|ns|mins?|minutes?)\b/gi, '<duration>'],
  [/\b[0-9a-f]{16,}\b/gi, '<hex>'],
];

/**
 * Normalizes a tool result for comparison. `cwds` are working directories (recorded and current) that
 * become `<cwd>`; any path under a temp directory becomes `<tmp>`.
 */
export function normalizeResult(text: string, cwds: (string | undefined)[] = []): string {
  // eslint-disable-next-line no-control-regex
  let s = text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  const dirs = [
    ...new Set(cwds.filter((d): d is string => !!d && d !== '/').map((d) => d.replace(/\/+$/, ''))),
  ];
  for (const d of dirs.sort((a, b) => b.length - a.length)) s = s.split(d).join('<cwd>');
  const roots = [...new Set([tmpdir().replace(/\/+$/, ''), ...TEMP_ROOTS])]
    .filter((r) => r && r !== '/')
    .sort((a, b) => b.length - a.length);
  s = s.replace(new RegExp(`(?:${roots.map(escape).join('|')})/${PATH_TAIL}`, 'g'), '<tmp>');
  for (const [re, to] of RULES) s = s.replace(re, to);
  return s.replace(/\s+/g, ' ').trim();
}
