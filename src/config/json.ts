/**
 * JSON.parse with errors that name the line and column. V8's messages differ between Node versions and
 * sometimes carry no position at all, so on failure a small scanner finds the first bad character itself.
 */
export class JsonSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${line}:${column}: ${reason}`);
  }
}

export function parseJson(text: string): unknown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch {
    const { offset, reason } = findSyntaxError(source);
    const { line, column } = lineColumn(source, offset);
    throw new JsonSyntaxError(line, column, reason);
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line += 1;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

class Fail {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

const MAX_SCAN_DEPTH = 1000;

/** Walks the text as JSON and reports the first offending offset. */
export function findSyntaxError(text: string): { offset: number; reason: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const shown = (at: number) => (at >= text.length ? 'end of file' : JSON.stringify(text[at]));
  const fail = (reason: string): never => {
    throw new Fail(i, reason);
  };
  // The scanner recurses; a hostile file nested this deep gets this reason instead of a stack overflow.
  let depth = 0;
  const nest = () => {
    if (++depth > MAX_SCAN_DEPTH) fail(`nested deeper than ${MAX_SCAN_DEPTH} levels`);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (c === "'") fail('strings must use double quotes');
    fail(`expected a value, found ${shown(i)}`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20)
        fail('unescaped control character (e.g. a line break) inside a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(`invalid number at ${shown(i)}`);
    i += m![0].length;
  };
  const object = () => {
    nest();
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      depth--;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === '}') fail('trailing comma before "}"');
      if (text[i] !== '"') fail(`expected a property name in double quotes, found ${shown(i)}`);
      string();
      ws();
      if (text[i] !== ':') fail(`expected ":" after the property name, found ${shown(i)}`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        depth--;
        return;
      }
      fail(`expected "," or "}", found ${shown(i)}`);
    }
  };
  const array = () => {
    nest();
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      depth--;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') fail('trailing comma before "]"');
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        depth--;
        return;
      }
      fail(`expected "," or "]", found ${shown(i)}`);
    }
  };
  try {
    ws();
    if (i >= text.length) return { offset: i, reason: 'the file is empty' };
    value();
    ws();
    if (i < text.length) fail(`unexpected ${shown(i)} after the end of the JSON value`);
    return { offset: text.length, reason: 'invalid JSON' };
  } catch (err) {
    if (err instanceof Fail) return { offset: err.offset, reason: err.reason };
    throw err;
  }
}
