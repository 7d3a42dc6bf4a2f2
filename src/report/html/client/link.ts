/**
 * Deep links: `#pair=<scenarioKey>|<agent>&run=<n>` (a variant adds `|<variant>`). The hash is untrusted
 * input: it is only parsed and compared with the page's own keys, never rendered or parsed as markup.
 */
import type { HtmlPair } from '../model.js';

export interface DeepLink {
  pair: string;
  run: number | null;
}

/** The key a pair is linked by. */
export function pairKey(pair: Pick<HtmlPair, 'scenarioKey' | 'agentName' | 'variant'>): string {
  const parts = [pair.scenarioKey, pair.agentName];
  if (pair.variant) parts.push(pair.variant);
  return parts.join('|');
}

/** Parse a location hash; null when it names no pair. A run that is not a positive integer is dropped. */
export function parseLink(hash: string): DeepLink | null {
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ''));
  } catch {
    return null;
  }
  const pair = params.get('pair');
  if (!pair) return null;
  const raw = params.get('run');
  const run = raw !== null && /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null;
  return { pair, run };
}

export function formatLink(link: DeepLink): string {
  const params = new URLSearchParams();
  params.set('pair', link.pair);
  if (link.run !== null) params.set('run', String(link.run));
  // `|` and `/` are legal in a fragment; keep them readable.
  return `#${params.toString().replace(/%7C/gi, '|').replace(/%2F/gi, '/')}`;
}

/** The pair index and run index (into `runs`) a link names, or null when the page has no such pair. */
export function resolveLink(
  link: DeepLink,
  pairs: readonly HtmlPair[],
): { pair: number; run: number | null } | null {
  const i = pairs.findIndex((p) => pairKey(p) === link.pair);
  if (i < 0) return null;
  const run = link.run === null ? -1 : pairs[i]!.runs.findIndex((r) => r.index === link.run);
  return { pair: i, run: run < 0 ? null : run };
}

/** Replace the hash without adding a history entry (and without a scroll jump). */
export function writeLink(link: DeepLink | null): void {
  const base = `${location.pathname}${location.search}`;
  try {
    history.replaceState(null, '', link ? `${base}${formatLink(link)}` : base);
  } catch {
    // Some embedders (sandboxed iframes, odd file:// setups) refuse replaceState; the link is a convenience.
  }
}
