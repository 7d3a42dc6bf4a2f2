/** The results table's pure parts: deep-link parsing/formatting and sort/filter order. */
import { describe, expect, it } from 'vitest';
import { formatLink, pairKey, parseLink, resolveLink } from '../../../src/report/html/client/link.js';
import { matches, sortedOrder } from '../../../src/report/html/client/sort.js';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import { fixture } from './fixture.js';

const { manifest, details } = fixture();
const pairs = toHtmlReportData(manifest, details).pairs;

describe('deep links', () => {
  it('round-trips a pair and run, readable, and resolves it to indices', () => {
    const link = { pair: pairKey(pairs[0]!), run: 2 };
    expect(formatLink(link)).toBe('#pair=cms/create-post|claude-code&run=2');
    expect(parseLink(formatLink(link))).toEqual(link);
    expect(resolveLink(link, pairs)).toEqual({ pair: 0, run: 1 });
    expect(pairKey({ scenarioKey: 'a', agentName: 'b', variant: 'v2' })).toBe('a|b|v2');
  });

  it('keeps hostile agent names intact and ignores what names nothing', () => {
    const hostile = { pair: pairKey(pairs[3]!), run: 1 };
    expect(parseLink(formatLink(hostile))).toEqual(hostile);
    expect(resolveLink(hostile, pairs)).toEqual({ pair: 3, run: 0 });
    expect(parseLink('#run=2')).toBeNull();
    expect(parseLink('#pair=')).toBeNull();
    expect(parseLink('#pair=x&run=-1')).toEqual({ pair: 'x', run: null });
    expect(parseLink('#pair=x&run=1e3')).toEqual({ pair: 'x', run: null });
    expect(resolveLink({ pair: 'nope|none', run: 1 }, pairs)).toBeNull();
    expect(resolveLink({ pair: pairKey(pairs[0]!), run: 99 }, pairs)).toEqual({ pair: 0, run: null });
  });
});

describe('sorting and filtering', () => {
  it('sorts numbers numerically with missing values last both ways, ties in report order', () => {
    expect(sortedOrder(pairs, 'axis', 'asc')).toEqual([0, 1, 2, 3]);
    expect(sortedOrder(pairs, 'axis', 'desc')).toEqual([1, 0, 2, 3]);
    expect(sortedOrder(pairs, 'status', 'asc')).toEqual([3, 2, 0, 1]);
    expect(sortedOrder(pairs, 'status', 'desc')).toEqual([0, 1, 2, 3]);
    expect(sortedOrder(pairs, 'scenario', 'asc')).toEqual([0, 3, 1, 2]);
  });

  it('filters by text over names and keys, and by status', () => {
    const keep = (text: string, status = '') =>
      pairs.flatMap((p, i) => (matches(p, { text, status }) ? [i] : []));
    expect(keep('')).toEqual([0, 1, 2, 3]);
    expect(keep('docs/')).toEqual([2]);
    expect(keep('  GEMINI ')).toEqual([2]);
    expect(keep('', 'failed')).toEqual([3]);
    expect(keep('cms', 'failed')).toEqual([]);
  });
});
