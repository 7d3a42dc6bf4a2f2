import { describe, expect, it } from 'vitest';
import {
  MAX_HEAD_BYTES,
  ResponseParser,
  type ParsedResponse,
} from '../../../../src/scoring/judges/http-response.js';

const crlf = (...lines: string[]): string => lines.join('\r\n');
/** An answer written on one line, `|` standing for CRLF. */
const wire = (text: string): string => text.replaceAll('|', '\r\n');

/** The response `bytes` make when fed in pieces of `step` bytes (0: all at once). */
function parse(
  bytes: Buffer | string,
  step = 0,
): { res: ParsedResponse | undefined; parser: ResponseParser } {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const parser = new ResponseParser();
  let res: ParsedResponse | undefined;
  if (step === 0) res = parser.feed(buf);
  else for (let at = 0; at < buf.length; at += step) res = parser.feed(buf.subarray(at, at + step));
  return { res, parser };
}

const JSON_BODY = '{"content":[{"type":"text","text":"é ✓ 𝄞"}]}';

describe('ResponseParser', () => {
  it('reads a Content-Length body the same whatever pieces it arrives in', () => {
    const bytes = `${crlf('HTTP/1.1 200 OK', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(JSON_BODY)}`, '', '')}${JSON_BODY}`;
    for (const step of [0, 1, 2, 7, 64]) {
      const { res, parser } = parse(bytes, step);
      expect(res?.status).toBe(200);
      expect(res?.headers['content-type']).toBe('application/json');
      expect(res?.body.toString('utf8')).toBe(JSON_BODY);
      expect(res?.reusable).toBe(true);
      expect(parser.extra).toBe(false);
    }
  });

  it('decodes chunked bodies with extensions and trailers, byte by byte', () => {
    const body = Buffer.from(JSON_BODY);
    const a = body.subarray(0, 10);
    const b = body.subarray(10);
    const bytes = Buffer.concat([
      Buffer.from(
        crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked', '', `${a.length.toString(16)};name=x`, ''),
      ),
      a,
      Buffer.from(`\r\n${b.length.toString(16).toUpperCase()}\r\n`),
      b,
      Buffer.from(crlf('', '0', 'X-Trailer: 1', '', '')),
    ]);
    for (const step of [0, 1, 3]) {
      const { res } = parse(bytes, step);
      expect(res?.body.toString('utf8')).toBe(JSON_BODY);
      expect(res?.reusable).toBe(true);
    }
  });

  it('skips interim 1xx answers and reads the final one', () => {
    const { res } = parse(
      wire(
        'HTTP/1.1 100 Continue||HTTP/1.1 103 Early Hints|Link: </a>||HTTP/1.1 201 Created|Content-Length: 2||ok',
      ),
    );
    expect(res?.status).toBe(201);
    expect(res?.body.toString()).toBe('ok');
  });

  it('has no body for 204 and 304, and none for Content-Length 0', () => {
    for (const head of ['HTTP/1.1 204 No Content', 'HTTP/1.1 304 Not Modified']) {
      const { res } = parse(crlf(head, 'Content-Length: 10', '', ''));
      expect(res?.body.length).toBe(0);
      expect(res?.reusable).toBe(true);
    }
    expect(parse(crlf('HTTP/1.1 200 OK', 'Content-Length: 0', '', '')).res?.body.length).toBe(0);
  });

  it('reads a body without framing to the connection’s end, and never reuses that connection', () => {
    const { res, parser } = parse(crlf('HTTP/1.1 200 OK', '', '{"a":'));
    expect(res).toBeUndefined();
    parser.feed(Buffer.from('1}'));
    const done = parser.end();
    expect(done.body.toString()).toBe('{"a":1}');
    expect(done.reusable).toBe(false);
  });

  it('reuses a connection only when the answer allows it', () => {
    const reusable = (...headers: string[]): boolean | undefined =>
      parse(crlf(...headers, 'Content-Length: 1', '', 'x')).res?.reusable;
    expect(reusable('HTTP/1.1 200 OK')).toBe(true);
    expect(reusable('HTTP/1.1 200 OK', 'Connection: close')).toBe(false);
    expect(reusable('HTTP/1.1 200 OK', 'Connection: Keep-Alive, Close')).toBe(false);
    expect(reusable('HTTP/1.0 200 OK')).toBe(false);
    expect(reusable('HTTP/1.0 200 OK', 'Connection: keep-alive')).toBe(true);
    // Transfer-Encoding and Content-Length together: the chunked body is read, the connection dropped.
    const both = parse(
      crlf('HTTP/1.1 200 OK', 'Content-Length: 99', 'Transfer-Encoding: chunked', '', '1', 'x', '0', '', ''),
    );
    expect(both.res?.body.toString()).toBe('x');
    expect(both.res?.reusable).toBe(false);
  });

  it('joins repeated headers and reads the server’s keep-alive timeout', () => {
    const { res } = parse(
      wire(
        'HTTP/1.1 429 Too Many|Retry-After: 3|X-A: 1|x-a: 2|Keep-Alive: timeout=5, max=100|Content-Length: 0||',
      ),
    );
    expect(res?.status).toBe(429);
    expect(res?.headers['x-a']).toBe('1, 2');
    expect(res?.headers['retry-after']).toBe('3');
    expect(res?.keepAliveSeconds).toBe(5);
  });

  it('marks bytes after the answer as extra: the connection is not reused', () => {
    const { res, parser } = parse(crlf('HTTP/1.1 200 OK', 'Content-Length: 1', '', 'xHTTP/1.1'));
    expect(res?.body.toString()).toBe('x');
    expect(parser.extra).toBe(true);
    expect(res?.reusable).toBe(false);
  });

  it('tells whether any byte of the answer has arrived', () => {
    const parser = new ResponseParser();
    expect(parser.started).toBe(false);
    parser.feed(Buffer.from('HTTP/1.1 2'));
    expect(parser.started).toBe(true);
  });

  it('refuses what is not an HTTP/1.x answer', () => {
    const bad: Array<[string, RegExp]> = [
      [crlf('HTTP/2 200', '', ''), /not an HTTP\/1\.x answer/],
      [crlf('SSH-2.0-OpenSSH', '', ''), /not an HTTP\/1\.x answer/],
      [crlf('HTTP/1.1 200 OK', 'no colon here', '', ''), /bad header line/],
      [crlf('HTTP/1.1 200 OK', 'Content-Length: 1, 2', '', ''), /bad Content-Length/],
      [crlf('HTTP/1.1 200 OK', 'Content-Length: -1', '', ''), /bad Content-Length/],
      [crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked', '', 'zz', ''), /bad chunk size/],
      [
        crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked', '', '1', 'xy', ''),
        /does not end where its size says/,
      ],
      [crlf('HTTP/1.1 101 Switching Protocols', '', ''), /switched protocols/],
    ];
    for (const [bytes, message] of bad) expect(() => parse(bytes), bytes).toThrow(message);
    // The same Content-Length twice is one value.
    expect(parse(crlf('HTTP/1.1 200 OK', 'Content-Length: 1, 1', '', 'x')).res?.body.toString()).toBe('x');
  });

  it('refuses headers larger than its limit instead of buffering without end', () => {
    const parser = new ResponseParser();
    parser.feed(Buffer.from('HTTP/1.1 200 OK\r\n'));
    expect(() => parser.feed(Buffer.alloc(MAX_HEAD_BYTES, 'a'))).toThrow(/headers are too large/);
  });

  it('fails an answer cut off before its end', () => {
    for (const bytes of [
      '',
      'HTTP/1.1 200 OK\r\nContent-Len',
      crlf('HTTP/1.1 200 OK', 'Content-Length: 5', '', 'ab'),
      crlf('HTTP/1.1 200 OK', 'Transfer-Encoding: chunked', '', '5', 'ab'),
    ]) {
      const { parser } = parse(bytes);
      expect(() => parser.end(), JSON.stringify(bytes)).toThrow(/closed before the whole answer arrived/);
    }
  });
});
