import { describe, expect, test } from 'vitest';
import { closest, editDistance, formatPath, unknownKeyMessage } from '../../../src/config/issues.js';
import { describeValue } from '../../../src/util/describe-value.js';

describe('issue helpers', () => {
  test('formatPath', () => {
    expect(formatPath(['judge', 2, 'weight'])).toBe('judge[2].weight');
    expect(formatPath(['mcp_servers', 'my server', 'url'])).toBe('mcp_servers["my server"].url');
    expect(formatPath([0, 'a'])).toBe('[0].a');
    expect(formatPath([])).toBe('');
  });
  test('editDistance and closest', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closest('wieght', ['check', 'weight'])).toBe('weight');
    expect(closest('Agnets', ['agents', 'settings'])).toBe('agents');
    expect(closest('zzzzzz', ['agents', 'settings'])).toBeUndefined();
  });
  test('unknown key messages suggest or list', () => {
    expect(unknownKeyMessage('promt', ['name', 'prompt'])).toBe('unknown key; did you mean "prompt"?');
    expect(unknownKeyMessage('xyz', ['check', 'weight'])).toBe('unknown key; expected one of: check, weight');
  });
  test('describeValue', () => {
    expect(describeValue(-3)).toBe('-3');
    expect(describeValue('sse')).toBe('"sse"');
    expect(describeValue('')).toBe('an empty string');
    expect(describeValue([])).toBe('an empty array');
    expect(describeValue({})).toBe('an object');
    expect(describeValue(null)).toBe('null');
    expect(describeValue('x'.repeat(100))).toBe(`"${'x'.repeat(57)}..."`);
    expect(describeValue('sk-ant-api03-abcdefghijkl')).toBe('a value that looks like a secret (not shown)');
    expect(describeValue('claude-3-5-sonnet-20241022')).toBe('"claude-3-5-sonnet-20241022"');
  });
});
