import { describe, expect, test } from 'vitest';
import { JsonSyntaxError, parseJson } from '../../../src/util/json.js';

const errorOf = (text: string) => {
  try {
    parseJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return `${err.line}:${err.column} ${err.reason}`;
    throw err;
  }
  return 'parsed';
};

describe('parseJson', () => {
  test('parses valid JSON, with or without a BOM', () => {
    expect(parseJson('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(parseJson('\ufeff{"a": true}')).toEqual({ a: true });
  });
  test.each([
    ['{\n  "a": 1,\n}', '3:1 trailing comma before "}"'],
    ['[1, 2,]', '1:7 trailing comma before "]"'],
    ['{\n  "a": 1\n  "b": 2\n}', '3:3 expected "," or "}", found "\\""'],
    ["{ 'a': 1 }", '1:3 expected a property name in double quotes, found "\'"'],
    ['{ "a": tru }', '1:8 expected a value, found "t"'],
    ['{ "a": "x', '1:10 unterminated string'],
    ['{ "a": 1 } }', '1:12 unexpected "}" after the end of the JSON value'],
    ['', '1:1 the file is empty'],
    ['{ "a": 01 }', '1:9 expected "," or "}", found "1"'],
    ['{ "a" 1 }', '1:7 expected ":" after the property name, found "1"'],
    ['{ "a": "line\nbreak" }', '1:13 unescaped control character (e.g. a line break) inside a string'],
  ])('%j → %s', (text, expected) => {
    expect(errorOf(text)).toBe(expected);
  });
});
