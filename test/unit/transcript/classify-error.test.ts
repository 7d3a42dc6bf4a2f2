import { describe, expect, it } from 'vitest';
import { classifyError, classFromStatus, statusFromText } from '../../../src/transcript/classify-error.js';

describe('classifyError', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [402, 'quota'],
    [429, 'rate_limit'],
    [408, 'timeout'],
    [504, 'timeout'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'api_error'],
    [529, 'api_error'],
  ] as const)('status %i → %s', (status, cls) => {
    expect(classifyError({ status })).toBe(cls);
  });

  it('400/404 have no fixed meaning: the message decides, else api_error', () => {
    expect(classFromStatus(400)).toBeNull();
    expect(classifyError({ status: 400, message: 'Your credit balance is too low to access the API' })).toBe(
      'quota',
    );
    expect(
      classifyError({ status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' }),
    ).toBe('limit_exceeded');
    expect(classifyError({ status: 404, message: 'model not found' })).toBe('api_error');
  });

  it('429 with a quota message is quota, not a transient rate limit', () => {
    expect(
      classifyError({
        status: 429,
        message: 'You exceeded your current quota, please check your plan and billing details.',
      }),
    ).toBe('quota');
    expect(classifyError({ status: 429, code: 'insufficient_quota' })).toBe('quota');
    expect(classifyError({ status: 429, message: 'Too many requests' })).toBe('rate_limit');
  });

  it.each([
    ['authentication_failed', 'auth'],
    ['billing_error', 'quota'],
    ['rate_limit', 'rate_limit'],
    ['server_error', 'api_error'],
    ['RESOURCE_EXHAUSTED', 'rate_limit'],
    ['DEADLINE_EXCEEDED', 'timeout'],
    ['ProviderAuthError', 'auth'],
    ['MessageAbortedError', 'cancelled'],
    ['FatalTurnLimitedError', 'limit_exceeded'],
  ] as const)('code %s → %s', (code, cls) => {
    expect(classifyError({ code })).toBe(cls);
  });

  it.each([
    ['Invalid API key · Please run /login', 'auth'],
    ['connect ECONNREFUSED 127.0.0.1:8787', 'network'],
    ['getaddrinfo EAI_AGAIN api.anthropic.com', 'network'],
    ['Request timed out.', 'timeout'],
    ['Overloaded', 'api_error'],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'api_error'],
    ['Operation cancelled.', 'cancelled'],
  ] as const)('message "%s" → %s', (message, cls) => {
    expect(classifyError({ message })).toBe(cls);
  });

  it('unknown → the fallback', () => {
    expect(classifyError({ message: 'something odd' })).toBe('api_error');
    expect(classifyError({ message: 'something odd' }, 'crash')).toBe('crash');
    expect(classifyError({})).toBe('api_error');
  });
});

describe('statusFromText', () => {
  it.each([
    ['API Error: 500 fake error', 500],
    ['[API Error: 401 Incorrect API key]', 401],
    ['exceeded retry limit, last status: 429 Too Many Requests', 429],
    ['upstream returned HTTP 503', 503],
    ['Request failed with status code 404', 404],
  ] as const)('"%s" → %i', (text, status) => {
    expect(statusFromText(text)).toBe(status);
  });

  it('ignores numbers that are not HTTP error statuses', () => {
    expect(statusFromText('status 200 ok')).toBeUndefined();
    expect(statusFromText('API Error: 5000 things')).toBeUndefined();
    expect(statusFromText('listening on 127.0.0.1:8787')).toBeUndefined();
    expect(statusFromText(undefined)).toBeUndefined();
  });
});
