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

/**
 * `at line 3, column 1: trailing comma before "}"` for a {@link parseJson} failure. The characters it
 * shows are JSON-escaped, so a file holding terminal control sequences never reaches the terminal as they are
 * (V8's own message quotes the text raw).
 */
export function jsonErrorAt(err: unknown): string {
  if (err instanceof JsonSyntaxError) return `at line ${err.line}, column ${err.column}: ${err.reason}`;
  return JSON.stringify(err instanceof Error ? err.message : String(err));
}

/** `invalid JSON at line 3, column 1: trailing comma before "}"` for a {@link parseJson} failure. */
export function invalidJsonMessage(err: unknown): string {
  return `invalid JSON ${jsonErrorAt(err)}`;
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

class DuplicateKey extends Fail {
  constructor(
    offset: number,
    readonly key: string,
  ) {
    super(offset, 'duplicate key');
  }
}

const MAX_SCAN_DEPTH = 1000;

/** Walks the text as JSON and reports the first offending offset. */
export function findSyntaxError(text: string): { offset: number; reason: string } {
  try {
    return new Scanner(text).document();
  } catch (err) {
    if (err instanceof Fail) return { offset: err.offset, reason: err.reason };
    throw err;
  }
}

/**
 * The first key that appears twice in one object of `text` (valid JSON), where it appears the second time;
 * undefined when there is none. JSON.parse keeps the last of them and drops the others without a word.
 */
export function findDuplicateKey(text: string): { key: string; line: number; column: number } | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    new Scanner(source, true).document();
  } catch (err) {
    if (err instanceof DuplicateKey) return { key: err.key, ...lineColumn(source, err.offset) };
    if (!(err instanceof Fail)) throw err;
  }
  return undefined;
}

/** One {@link findSyntaxError} call: a recursive descent that throws {@link Fail} at the first bad offset. */
class Scanner {
  private i = 0;
  // The scanner recurses; a hostile file nested this deep gets this reason instead of a stack overflow.
  private depth = 0;

  /** `duplicates`: also fail at a key an object already has ({@link DuplicateKey}). */
  constructor(
    private readonly text: string,
    private readonly duplicates = false,
  ) {}

  /** The whole text: one value with nothing but whitespace around it. */
  document(): { offset: number; reason: string } {
    this.ws();
    if (this.i >= this.text.length) return { offset: this.i, reason: 'the file is empty' };
    this.value();
    this.ws();
    if (this.i < this.text.length)
      this.fail(`unexpected ${this.shown(this.i)} after the end of the JSON value`);
    return { offset: this.text.length, reason: 'invalid JSON' };
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  private shown(at: number): string {
    return at >= this.text.length ? 'end of file' : JSON.stringify(this.text[at]);
  }

  private fail(reason: string): never {
    throw new Fail(this.i, reason);
  }

  private nest(): void {
    if (++this.depth > MAX_SCAN_DEPTH) this.fail(`nested deeper than ${MAX_SCAN_DEPTH} levels`);
  }

  /** Past the closing bracket of an object or array. */
  private leave(): void {
    this.i++;
    this.depth--;
  }

  private value(): void {
    this.ws();
    const c = this.text[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.i)) {
        this.i += word.length;
        return;
      }
    }
    if (c === "'") this.fail('strings must use double quotes');
    this.fail(`expected a value, found ${this.shown(this.i)}`);
  }

  private string(): void {
    this.i++;
    while (this.i < this.text.length && this.text[this.i] !== '"') {
      if (this.text[this.i] === '\\') this.i++;
      else if (this.text.charCodeAt(this.i) < 0x20)
        this.fail('unescaped control character (e.g. a line break) inside a string');
      this.i++;
    }
    if (this.i >= this.text.length) this.fail('unterminated string');
    this.i++;
  }

  private number(): void {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i));
    if (!m) this.fail(`invalid number at ${this.shown(this.i)}`);
    this.i += m![0].length;
  }

  private object(): void {
    this.nest();
    this.i++;
    this.ws();
    if (this.text[this.i] === '}') return this.leave();
    const keys = this.duplicates ? new Set<string>() : undefined;
    for (;;) {
      this.ws();
      if (this.text[this.i] === '}') this.fail('trailing comma before "}"');
      this.property(keys);
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === '}') return this.leave();
      this.fail(`expected "," or "}", found ${this.shown(this.i)}`);
    }
  }

  /** `"name": value`; a name already in `keys` is a {@link DuplicateKey}. */
  private property(keys?: Set<string>): void {
    if (this.text[this.i] !== '"')
      this.fail(`expected a property name in double quotes, found ${this.shown(this.i)}`);
    const start = this.i;
    this.string();
    if (keys) {
      const key = JSON.parse(this.text.slice(start, this.i)) as string;
      if (keys.has(key)) throw new DuplicateKey(start, key);
      keys.add(key);
    }
    this.ws();
    if (this.text[this.i] !== ':')
      this.fail(`expected ":" after the property name, found ${this.shown(this.i)}`);
    this.i++;
    this.value();
  }

  private array(): void {
    this.nest();
    this.i++;
    this.ws();
    if (this.text[this.i] === ']') return this.leave();
    for (;;) {
      this.ws();
      if (this.text[this.i] === ']') this.fail('trailing comma before "]"');
      this.value();
      this.ws();
      if (this.text[this.i] === ',') {
        this.i++;
        continue;
      }
      if (this.text[this.i] === ']') return this.leave();
      this.fail(`expected "," or "]", found ${this.shown(this.i)}`);
    }
  }
}
