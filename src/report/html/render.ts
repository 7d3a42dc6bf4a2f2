/**
 * report.html: one self-contained file. The page's CSS and script are inlined and allowed by hash in a
 * strict Content-Security-Policy (nothing remote can load, inline event handlers cannot run); the
 * report data is JSON → raw deflate → base64 in a non-executable script element, so no byte of it can
 * close the element or be parsed as markup.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import { createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';
import { compactJsonChunks } from '../json-chunks.js';
import { giveBuffer } from '../../util/buffer-pool.js';
import { bidiByteScanner, closeBidiDeep } from './bidi.js';
import { clientScript } from './client-bundle.js';
import type { HtmlReportData } from './model.js';
import { STYLES } from './styles.js';

export const DATA_ELEMENT_ID = 'axis-report-data';

export function renderReportHtml(data: HtmlReportData): string {
  return page(data, encodeReportData(data));
}

/** The same page, its data encoded by streamReportData (what `axis run` and `axis reports` write). */
export async function renderReportHtmlStreamed(data: HtmlReportData): Promise<string> {
  return page(data, await streamReportData(data));
}

function page(data: HtmlReportData, payload: string): string {
  const script = inlineSafe(clientScript());
  const style = STYLES;
  const csp = [
    "default-src 'none'",
    `script-src '${sha256(script)}'`,
    `style-src '${sha256(style)}'`,
    'img-src data: blob:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const title = `AXIS report ${data.report.id}${data.report.name ? ` — ${data.report.name}` : ''}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${style}</style>`,
    '</head>',
    '<body>',
    '<div id="app" role="status">Loading report…</div>',
    '<noscript><p>This report needs JavaScript to display. The same data is in report.json next to this file.</p></noscript>',
    `<script id="${DATA_ELEMENT_ID}" type="application/octet-stream" data-encoding="deflate-raw+base64">${payload}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Deflate level, chosen by measurement (docs/performance.md): on a realistic 20-scenario suite level 5
 * is within 3% of level 9's size at a third to a half of its time, and on long repetitive transcripts
 * level 9 took 2.6 s where level 5 takes 0.3 s for 11% more bytes.
 */
export const DEFLATE_LEVEL = 5;

/** zlib's output buffer for the page data (its default is 16 KB): a megabyte of JSON deflates to ~70 KB. */
const DEFLATE_OUT_BYTES = 1 << 20;

/**
 * JSON → raw deflate → base64 (the alphabet has no `<`, `&` or quote). Every text is untrusted: a bidi
 * control one leaves open is closed at its end (bidi.ts), so it cannot mirror the page's words after it.
 */
export function encodeReportData(data: HtmlReportData): string {
  let bytes = Buffer.from(JSON.stringify(data), 'utf8');
  if (bidiByteScanner()(bytes)) bytes = Buffer.from(JSON.stringify(closedCopy(data)), 'utf8');
  return deflateRawSync(bytes, { level: DEFLATE_LEVEL }).toString('base64');
}

/**
 * A copy of the page data with every text's open bidi controls closed (the caller's data is left as it
 * is). Only for data that holds one: the serialized bytes tell (`bidiByteScanner`).
 */
function closedCopy(data: HtmlReportData): HtmlReportData {
  return closeBidiDeep(JSON.parse(JSON.stringify(data)) as HtmlReportData);
}

/**
 * encodeReportData's format, the JSON serialized a megabyte at a time and deflated by a zlib stream: the
 * compression of one chunk runs on libuv's thread pool (another core) while the next chunk is
 * serialized, and the whole JSON text and its UTF-8 copy are never in memory (10 MB each for a 20 MB
 * transcript).
 */
export async function streamReportData(data: HtmlReportData): Promise<string> {
  // The bytes are searched for bidi controls as they go (encodeReportData): when one is found, the
  // deflating stops and starts over with the texts closed.
  return (await deflatedUnlessBidi(data, bidiByteScanner())) ?? (await deflatedUnlessBidi(closedCopy(data)))!;
}

/** The page data deflated and base64'd; null (the stream abandoned) as soon as `bidi` finds a control. */
async function deflatedUnlessBidi(
  data: HtmlReportData,
  bidi?: (bytes: Uint8Array) => boolean,
): Promise<string | null> {
  // One output buffer per write: with zlib's default 16 KB, each write went back and forth between the
  // thread pool and this thread ~15 times, and while this thread serialized the next chunk the pool sat
  // idle waiting for it (18 ms of a 20 MB run's page). The bytes are the same either way.
  const deflate = createDeflateRaw({ level: DEFLATE_LEVEL, chunkSize: DEFLATE_OUT_BYTES });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise<void>((resolve, reject) => {
    deflate.once('end', resolve);
    deflate.on('error', reject);
  });
  done.catch(() => undefined); // awaited below; a failure in the loop is thrown from there first
  for (const chunk of compactJsonChunks(data)) {
    if (deflate.destroyed) break;
    if (bidi?.(chunk)) {
      giveBuffer(chunk);
      deflate.destroy();
      return null;
    }
    // Once zlib has taken the chunk in, its buffer goes back to the pool (json-chunks.ts).
    deflate.write(chunk, () => giveBuffer(chunk));
    // At most two chunks wait; the finished one's callback runs and sends the next to the thread pool.
    if (deflate.writableLength > 2 * chunk.length) await once(deflate, 'drain');
    else await setImmediate();
  }
  deflate.end();
  await done;
  return Buffer.concat(out).toString('base64');
}

/** The inverse of encodeReportData, for tools and tests. */
export function decodeReportData(payload: string): HtmlReportData {
  return JSON.parse(inflateRawSync(Buffer.from(payload, 'base64')).toString('utf8')) as HtmlReportData;
}

/** A `</script` or `<!--` inside inline script text would end or confuse the element. */
function inlineSafe(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
