/**
 * The sparse index: one line per interaction, the compressed transcript judges and readers scan first
 * (docs/scoring.md#sparse-index). Linear in the number of interactions; tool inputs are summarised from
 * their first few fields without serialising them.
 */
import type { ClassifiedInteraction } from './types.js';

export const DETAIL_CHARS = 60;
export const TEXT_CHARS = 80;
/** Raw characters of one value looked at before cleaning and cutting. */
const PEEK_CHARS = 160;

export interface SparseIndexMeta {
  scenarioKey: string;
  agentName: string;
}

export interface SparseCounts {
  interactions: number;
  environment: number;
  service: number;
  agent: number;
  errors: number;
  unclassified: number;
}

export function buildSparseIndex(
  interactions: readonly ClassifiedInteraction[],
  meta: SparseIndexMeta,
): string {
  const c = sparseCounts(interactions);
  const chunks = [
    `# Sparse Index: ${clean(meta.scenarioKey, 200)} / ${clean(meta.agentName, 200)}`,
    `# ${c.interactions} interactions | env: ${c.environment} | svc: ${c.service} | agent: ${c.agent}` +
      ` | errors: ${c.errors} | unclassified: ${c.unclassified}`,
  ];
  // Lines are joined in batches: flat chunk strings survive garbage collection far more cheaply than
  // thousands of half-built line strings.
  let batch: string[] = [];
  for (const ix of interactions) {
    batch.push(sparseLine(ix));
    if (batch.length === 256) {
      chunks.push(batch.join('\n'));
      batch = [];
    }
  }
  if (batch.length > 0) chunks.push(batch.join('\n'));
  // The final newline from the join itself: `+ '\n'` made a cons string that its first reader (a regular
  // expression, a write) copied flat again, a second megabyte-sized copy of a long run's index.
  chunks.push('');
  return chunks.join('\n');
}

/** Multi-category interactions count in each of their categories. */
export function sparseCounts(interactions: readonly ClassifiedInteraction[]): SparseCounts {
  const c: SparseCounts = {
    interactions: interactions.length,
    environment: 0,
    service: 0,
    agent: 0,
    errors: 0,
    unclassified: 0,
  };
  for (const ix of interactions) {
    for (const cat of ix.categories) c[cat]++;
    if (ix.outcome === 'error') c.errors++;
    if (ix.unclassified) c.unclassified++;
  }
  return c;
}

export function sparseLine(ix: ClassifiedInteraction): string {
  return (
    `#${ix.id}`.padEnd(6) +
    padded(categoryColumn, categoryLabel(ix), 12) +
    padded(typeColumn, ix.type, 10) +
    detail(ix) +
    ` -> ${outcomeLabel(ix)} ${formatBytes(ix.contextBytes)} ${formatDuration(ix.durationMs, ix.durationSource)}`
  );
}

/**
 * The category and type columns hold a handful of distinct values: each padded once per process rather
 * than once per line (two fewer strings made for each of a long run's 17,000 lines).
 */
const categoryColumn = new Map<string, string>();
const typeColumn = new Map<string, string>();
function padded(cache: Map<string, string>, text: string, width: number): string {
  let out = cache.get(text);
  if (out === undefined) {
    out = text.padEnd(width);
    if (cache.size < 64) cache.set(text, out);
  }
  return out;
}

/** `env`, `service`, `agent`, `env,service`; unclassified tools get a trailing `?`. */
export function categoryLabel(ix: Pick<ClassifiedInteraction, 'categories' | 'unclassified'>): string {
  // One category is the common case: no array or join for it (17,000 lines in a long run).
  const cats = ix.categories;
  const label = cats.length === 1 ? shortCategory(cats[0]!) : cats.map((c) => shortCategory(c)).join(',');
  return ix.unclassified ? `${label}?` : label;
}

function shortCategory(c: string): string {
  return c === 'environment' ? 'env' : c;
}

export function outcomeLabel(ix: Pick<ClassifiedInteraction, 'outcome' | 'failure'>): string {
  if (ix.outcome === 'ok') return 'ok';
  if (ix.outcome === 'no_result') return 'no-result';
  const f = ix.failure;
  if (!f) return 'error';
  switch (f.kind) {
    case 'permission_denied':
      return 'error(permission denied)';
    case 'http_status':
      return `error(HTTP ${f.httpStatus})`;
    case 'exit_code':
      return `error(exit ${f.exitCode})`;
    case 'agent_error':
      return f.errorClass ? `error(${f.errorClass})` : 'error';
    default:
      return 'error';
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${tenths(n, 1024)}KB`;
  return `${tenths(n, 1024 * 1024)}MB`;
}

/**
 * `(n / unit).toFixed(1)` for a whole n and a power-of-two unit, in integer arithmetic: the quotient
 * is exact, and toFixed rounds its tenths half up, as `(10n + unit / 2) / unit` floored does.
 * `toFixed` was a tenth of the sparse index's time (test/unit/scoring/sparse-index.test.ts checks
 * both agree).
 */
export function tenths(n: number, unit: number): string {
  if (!Number.isSafeInteger(n * 10 + unit)) return (n / unit).toFixed(1);
  const t = Math.floor((n * 10 + unit / 2) / unit);
  return `${Math.floor(t / 10)}.${t % 10}`;
}

/** `-` when not measured; `~` marks a duration measured on AXIS receipt times rather than the agent's clock. */
export function formatDuration(ms: number | null, source: ClassifiedInteraction['durationSource']): string {
  if (ms === null || source === 'none') return '-';
  const mark = source === 'received' ? '~' : '';
  return ms < 1000 ? `${mark}${Math.round(ms)}ms` : `${mark}${(ms / 1000).toFixed(1)}s`;
}

function detail(ix: ClassifiedInteraction): string {
  if (ix.type === 'tool') {
    const name = ix.tool?.name ? clean(ix.tool.name, 60) : '(unknown tool)';
    return `${name}(${inputSummary(ix.tool?.input)})`;
  }
  const text = `"${clean(ix.summary ?? '', TEXT_CHARS)}"`;
  if (ix.type === 'reasoning' && ix.thinkingOnly) return ix.summary ? `(thinking) ${text}` : '(thinking)';
  return text;
}

/** `key: value, key: value` over primitive fields, secrets masked, cut at DETAIL_CHARS. */
export function inputSummary(input: unknown, max = DETAIL_CHARS): string {
  if (input === undefined || input === null) return '';
  if (typeof input !== 'object') return clean(String(input).slice(0, PEEK_CHARS), max);
  if (Array.isArray(input)) return `[${input.length} items]`;
  let out = '';
  for (const key in input) {
    if (!Object.prototype.hasOwnProperty.call(input, key)) continue;
    const value = (input as Record<string, unknown>)[key];
    let text: string;
    if (typeof value === 'string') text = SECRET_KEY.test(key) ? '[redacted]' : value.slice(0, PEEK_CHARS);
    else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
    else continue;
    out += `${out === '' ? '' : ', '}${clean(key, 40)}: ${clean(text, max)}`;
    if (out.length >= max) break;
  }
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

const SECRET_KEY = /(?:api[_-]?key|token|secret|password|passwd|authorization|credential)/i;
const SECRET_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  [/\b(?:sk|pk|rk|ghp|gho|ghs|ghu|github_pat|glpat|xox[abpr])[-_][A-Za-z0-9_-]{8,}/g, '[redacted]'],
  [/\bAKIA[A-Z0-9]{12,}/g, '[redacted]'],
  [/((?:api[_-]?key|token|secret|password|passwd)["']?\s*[:=]\s*["']?)[^\s"'&]{4,}/gi, '$1[redacted]'],
];

/**
 * Cheap pre-check: text without any of these cannot match a secret pattern. It is
 * `bearer|basic|token|secret|passw|api[_-]?key|akia|(?:sk|pk|rk|gh[opsu]|pat|glpat|xox[abpr])[-_]`
 * (case-insensitive) factored by first letter, which V8 scans a quarter faster (report.html redacts
 * every transcript text: 20 MB in a long run); test/unit/scoring/sparse-index.test.ts checks both agree.
 */
export const SECRET_HINT =
  /b(?:earer|asic)|token|s(?:ecret|k[-_])|p(?:assw|k[-_]|at[-_])|a(?:pi[_-]?key|kia)|rk[-_]|g(?:h[opsu][-_]|lpat[-_])|xox[abpr][-_]/i;

/** Mask common credential shapes (bearer tokens, provider key prefixes, `token=` pairs). */
export function redact(text: string): string {
  if (!SECRET_HINT.test(text)) return text;
  let out = text;
  for (const [re, replacement] of SECRET_PATTERNS) out = out.replace(re, replacement);
  return out;
}

const PLAIN = /^[\w.@:/+-]*$/;
/**
 * What `clean` collapses to one space: every run of whitespace and control characters, i.e.
 * `[\s\u0000-\u001f\u007f-\u009f]+` (`\s` has U+2028 and U+2029). A lone plain space is left out of
 * the match (it would be replaced by itself): most texts are words and single spaces, and a replace
 * per space cost half of `clean`. test/unit/scoring/sparse-index.test.ts checks both agree.
 */
// eslint-disable-next-line no-control-regex
export const SPACE_RUNS = /[\s\u0000-\u001f\u007f-\u009f]{2,}|[^\S ]|[\u0000-\u001f\u007f-\u009f]/g;

/** One line of untrusted text: secrets masked, control characters and whitespace runs collapsed, cut. */
export function clean(text: string, max: number): string {
  if (text.length <= max && PLAIN.test(text) && !SECRET_HINT.test(text)) return text;
  // Enough past the cut for a secret that starts before it to still be recognised and masked.
  const peekLength = Math.min(PEEK_CHARS, max + 40);
  const peek = text.length > peekLength ? text.slice(0, peekLength) : text;
  const flat = redact(peek).replace(SPACE_RUNS, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
