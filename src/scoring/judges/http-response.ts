/**
 * An HTTP/1.x response read from bytes as they arrive (RFC 9112): the status line, the headers, and the
 * body framed by Content-Length, chunked transfer coding or the connection's end. Interim 1xx responses
 * are skipped. Pure: the connection code (http-client.ts) feeds it and acts on what it says.
 */

/** What a response says about its connection once it is complete. */
export interface ParsedResponse {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The connection may carry another request: framed body, HTTP/1.1, no `Connection: close`. */
  reusable: boolean;
  /** Seconds from `Keep-Alive: timeout=N`, when the server gave one. */
  keepAliveSeconds?: number;
}

export class ResponseError extends Error {
  readonly code = 'EBADRESPONSE';
}

/** Longer heads (status line and headers) are refused, as node:http refuses them (16 KB there). */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line (size and extensions) or trailer line longer than this is refused. */
const MAX_LINE_BYTES = 8 * 1024;
const CRLF_CRLF = Buffer.from('\r\n\r\n');

type Framing = { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' } | { kind: 'none' };
type ChunkState = 'size' | 'data' | 'data-end' | 'trailers';

export class ResponseParser {
  private pending: Buffer | undefined;
  private head: Omit<ParsedResponse, 'body'> | undefined;
  private framing: Framing | undefined;
  private readonly parts: Buffer[] = [];
  private chunkState: ChunkState = 'size';
  private chunkLeft = 0;
  private result: ParsedResponse | undefined;
  /** Bytes after the end of the response (a server that misbehaves): the connection is not reused. */
  extra = false;

  /** Takes the next bytes; returns the response once it is complete. Throws a ResponseError. */
  feed(chunk: Buffer): ParsedResponse | undefined {
    if (this.result) {
      if (chunk.length > 0) this.extra = true;
      return this.result;
    }
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    while (!this.head) {
      const end = buf.indexOf(CRLF_CRLF);
      if (end === -1) {
        if (buf.length > MAX_HEAD_BYTES) throw new ResponseError('the answer’s headers are too large');
        this.pending = buf;
        return undefined;
      }
      const head = parseHead(buf.toString('latin1', 0, end));
      buf = buf.subarray(end + 4);
      // 1xx: an interim answer (100 Continue, 103 Early Hints); the real one follows.
      if (head.status < 200 && head.status !== 101) continue;
      this.head = head;
      this.framing = framingOf(head);
      if (this.framing.kind === 'close') this.head.reusable = false;
    }
    this.body(buf);
    return this.result;
  }

  /** The connection ended: completes a body framed by the connection's end, else throws. */
  end(): ParsedResponse {
    if (this.result) return this.result;
    if (this.head && this.framing?.kind === 'close') {
      this.complete(false);
      return this.result!;
    }
    throw new ResponseError('the connection closed before the whole answer arrived');
  }

  /** Whether any byte of a response has arrived (a reused connection closed before that can be retried). */
  get started(): boolean {
    return this.head !== undefined || (this.pending?.length ?? 0) > 0;
  }

  private body(buf: Buffer): void {
    const f = this.framing!;
    if (f.kind === 'none') {
      if (buf.length > 0) this.extra = true;
      return this.complete();
    }
    if (f.kind === 'close') {
      if (buf.length > 0) this.parts.push(buf);
      return;
    }
    if (f.kind === 'length') {
      const take = Math.min(f.left, buf.length);
      if (take > 0) this.parts.push(buf.subarray(0, take));
      f.left -= take;
      if (buf.length > take) this.extra = true;
      if (f.left === 0) this.complete();
      return;
    }
    this.chunked(buf);
  }

  private chunked(buf: Buffer): void {
    let at = 0;
    while (at < buf.length && !this.result) {
      if (this.chunkState === 'data') {
        const take = Math.min(this.chunkLeft, buf.length - at);
        this.parts.push(buf.subarray(at, at + take));
        at += take;
        this.chunkLeft -= take;
        if (this.chunkLeft === 0) this.chunkState = 'data-end';
        continue;
      }
      const eol = buf.indexOf('\r\n', at);
      if (eol === -1) {
        if (buf.length - at > MAX_LINE_BYTES)
          throw new ResponseError('a chunk line of the answer is too long');
        this.pending = buf.subarray(at);
        return;
      }
      const line = buf.toString('latin1', at, eol);
      at = eol + 2;
      if (this.chunkState === 'data-end') {
        if (line !== '') throw new ResponseError('a chunk of the answer does not end where its size says');
        this.chunkState = 'size';
      } else if (this.chunkState === 'size') {
        const size = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?$/.exec(line);
        if (!size)
          throw new ResponseError(`the answer has a bad chunk size: ${JSON.stringify(line.slice(0, 40))}`);
        this.chunkLeft = Number.parseInt(size[1]!, 16);
        this.chunkState = this.chunkLeft === 0 ? 'trailers' : 'data';
      } else if (line === '') {
        this.complete();
      }
      // else: a trailer field, not needed
    }
    if (at < buf.length) this.extra = true;
  }

  private complete(reusable = this.head!.reusable): void {
    const body = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    this.result = { ...this.head!, reusable: reusable && !this.extra, body };
  }
}

function parseHead(text: string): Omit<ParsedResponse, 'body'> {
  const lines = text.split('\r\n');
  const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]!);
  if (!m) throw new ResponseError(`not an HTTP/1.x answer: ${JSON.stringify(lines[0]!.slice(0, 40))}`);
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0)
      throw new ResponseError(`the answer has a bad header line: ${JSON.stringify(line.slice(0, 40))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const connection = (headers.connection ?? '').toLowerCase();
  const reusable = m[1] === '1' ? !/\bclose\b/.test(connection) : /\bkeep-alive\b/.test(connection);
  const timeout = /\btimeout=(\d+)/i.exec(headers['keep-alive'] ?? '');
  return {
    status: Number(m[2]),
    headers,
    reusable,
    ...(timeout ? { keepAliveSeconds: Number(timeout[1]) } : {}),
  };
}

/** How the body ends (RFC 9112 §6.3, for the answer to a POST). */
function framingOf(head: Omit<ParsedResponse, 'body'>): Framing {
  if (head.status === 204 || head.status === 304) return { kind: 'none' };
  if (head.status === 101) throw new ResponseError('the server switched protocols (HTTP 101) for a POST');
  const te = head.headers['transfer-encoding'];
  if (te !== undefined) {
    // With both, Transfer-Encoding wins and the connection is not trusted with another request.
    if (head.headers['content-length'] !== undefined) head.reusable = false;
    return /(?:^|,)\s*chunked\s*$/i.test(te) ? { kind: 'chunked' } : { kind: 'close' };
  }
  const cl = head.headers['content-length'];
  if (cl === undefined) return { kind: 'close' };
  const values = new Set(cl.split(',').map((v) => v.trim()));
  const only = values.size === 1 ? [...values][0]! : '';
  if (!/^\d{1,15}$/.test(only))
    throw new ResponseError(`the answer has a bad Content-Length: ${JSON.stringify(cl)}`);
  const left = Number(only);
  return left === 0 ? { kind: 'none' } : { kind: 'length', left };
}
