import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bidiByteScanner } from '../../../src/report/html/bidi.js';
import { toHtmlReportData } from '../../../src/report/html/index.js';
import {
  decodeReportData,
  DATA_ELEMENT_ID,
  encodeReportData,
  renderReportHtml,
  renderReportHtmlStreamed,
  streamReportData,
} from '../../../src/report/html/render.js';
import { fixture } from './fixture.js';

const sha = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe('renderReportHtml', () => {
  const { manifest, details } = fixture();
  const data = toHtmlReportData(manifest, details);
  const html = renderReportHtml(data);

  it('is one file whose CSP allows exactly its own inline script and style', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/
      .exec(html)![1]!
      .replace(/&#39;/g, "'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(csp).toBe(
      `default-src 'none'; script-src ${sha(script)}; style-src ${sha(style)}; img-src data: blob:; base-uri 'none'; form-action 'none'`,
    );
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html.match(/<style\b/g)).toHaveLength(1);
  });

  it('references nothing outside the file', () => {
    const markup = html
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
      .replace(/<style>[\s\S]*?<\/style>/, '');
    expect(markup).not.toMatch(/<(?:link|iframe|img|object|embed|base)\b/i);
    expect(markup).not.toMatch(/\s(?:src|href)\s*=/i);
    // Neither the page script nor the stylesheet names any URL or imports anything. The SVG namespace
    // (the trend chart's createElementNS) is a name, never fetched: it is the one allowed, once.
    const SVG_NS = 'http://www.w3.org/2000/svg';
    expect(html.split(SVG_NS)).toHaveLength(2);
    expect(html.replace(SVG_NS, '')).not.toMatch(/https?:\/\/|@import/i);
    expect(/<style>([\s\S]*?)<\/style>/.exec(html)![1]).not.toMatch(/url\(/i);
  });

  it('embeds the data compressed and recoverable', () => {
    const payload = new RegExp(
      `<script id="${DATA_ELEMENT_ID}" type="application/octet-stream"[^>]*>([A-Za-z0-9+/=]+)</script>`,
    ).exec(html)![1]!;
    expect(decodeReportData(payload)).toEqual(data);
    // The injection payloads are only inside the base64 text, never as markup.
    expect(html).not.toContain('__pwned');
    expect(payload.length).toBeLessThan(JSON.stringify(data).length / 2);
  });

  it('escapes the title', () => {
    const nasty = toHtmlReportData({
      ...manifest,
      reportId: '</title><script>x()</script>',
      name: undefined,
    });
    expect(renderReportHtml(nasty)).toContain(
      '<title>AXIS report &#60;/title&#62;&#60;script&#62;x()&#60;/script&#62;</title>',
    );
  });

  it('streamed: the same page, the data in the same format, many chunks', async () => {
    expect(await renderReportHtmlStreamed(data)).toBe(html);
    // A report whose JSON spans several megabyte chunks decodes to exactly the same data.
    const big = structuredClone(data);
    const run = big.pairs[0]!.runs[0]!;
    run.events = Array.from({ length: 40_000 }, (_, i) => ({
      kind: 'text',
      text: `event ${i} ${'é'.repeat(i % 90)}`,
    }));
    expect(JSON.stringify(big).length).toBeGreaterThan(3 * 2 ** 20);
    const payload = await streamReportData(big);
    expect(decodeReportData(payload)).toEqual(big);
    expect(payload).toBe(encodeReportData(big));
  });

  it('closes the bidi controls a text leaves open, streamed or not, and leaves the data given as it is', async () => {
    const RLO = '\u202e';
    const LRI = '\u2066';
    const withBidi = structuredClone(data);
    const run = withBidi.pairs[0]!.runs[0]!;
    // Past the first megabyte chunk: the streamed encoding has already deflated some when it finds it.
    run.events = [
      ...Array.from({ length: 30_000 }, (_, i) => ({
        kind: 'text' as const,
        text: `event ${i} … ${'x'.repeat(40)}`,
      })),
      { kind: 'text', text: `fatal: ${RLO}gnorw` },
      { kind: 'text', text: `${LRI}isolate` },
    ];
    withBidi.report.name = `suite ${RLO}eman`;
    expect(JSON.stringify(withBidi).length).toBeGreaterThan(2 ** 20);
    const before = JSON.stringify(withBidi);
    const streamed = decodeReportData(await streamReportData(withBidi));
    const events = streamed.pairs[0]!.runs[0]!.events;
    expect(events.at(-2)!.text).toBe(`fatal: ${RLO}gnorw\u202c`);
    expect(events.at(-1)!.text).toBe(`${LRI}isolate\u2069`);
    expect(streamed.report.name).toBe(`suite ${RLO}eman\u202c`);
    expect(events[0]!.text).toBe(run.events[0]!.text);
    expect(decodeReportData(encodeReportData(withBidi))).toEqual(streamed);
    expect(JSON.stringify(withBidi)).toBe(before);
  });
});

describe('bidiByteScanner', () => {
  const bytes = (s: string) => Buffer.from(s, 'utf8');
  it('finds every control closeBidi closes, and none of the characters beside them', () => {
    for (const c of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ])
      expect(bidiByteScanner()(bytes(`a${c}b`)), c.codePointAt(0)!.toString(16)).toBe(true);
    // Same first bytes (E2 80 / E2 81), other characters: … ‚ ‭‮ neighbours, ⁥ ⁪, and no E2 at all.
    for (const c of ['…', '\u2029', '\u202f', '\u2065', '\u206a', '—', 'é', '\u{1f600}'])
      expect(bidiByteScanner()(bytes(`a${c}b`)), c).toBe(false);
  });

  it('finds a control cut across pieces, at every cut, however small the pieces', () => {
    const all = bytes(`ab…c\u202ed`);
    for (let cut = 1; cut < all.length; cut++) {
      const scan = bidiByteScanner();
      expect(scan(all.subarray(0, cut)) || scan(all.subarray(cut)), `cut at ${cut}`).toBe(true);
    }
    const scan = bidiByteScanner();
    expect([...all].some((b) => scan(Uint8Array.of(b)))).toBe(true);
    const clean = bidiByteScanner();
    expect([...bytes('ab…c—d')].some((b) => clean(Uint8Array.of(b)))).toBe(false);
  });
});
