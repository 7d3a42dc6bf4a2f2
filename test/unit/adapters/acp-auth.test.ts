import { describe, expect, it } from 'vitest';
import { authHint, envAuthMethod, isAuthRequired } from '../../../src/adapters/acp-auth.js';

// As codex-acp 0.16.0 answers `initialize`.
const CODEX = [
  { id: 'chatgpt', name: 'Login with ChatGPT' },
  { type: 'env_var', id: 'codex-api-key', name: 'Use CODEX_API_KEY', vars: [{ name: 'CODEX_API_KEY' }] },
  { type: 'env_var', id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: [{ name: 'OPENAI_API_KEY' }] },
];

describe('ACP env_var authentication', () => {
  it('picks the first env_var method whose required variables are set and non-empty', () => {
    expect(envAuthMethod(CODEX, { OPENAI_API_KEY: 'k' })).toBe('openai-api-key');
    expect(envAuthMethod(CODEX, { OPENAI_API_KEY: 'k', CODEX_API_KEY: 'c' })).toBe('codex-api-key');
    expect(envAuthMethod(CODEX, { CODEX_API_KEY: '' })).toBeUndefined();
    expect(envAuthMethod(CODEX, {})).toBeUndefined();
    const optional = [
      { type: 'env_var', id: 'm', name: 'M', vars: [{ name: 'KEY' }, { name: 'ORG', optional: true }] },
    ];
    expect(envAuthMethod(optional, { KEY: 'k' })).toBe('m');
    // A method with no variables, or of another type, is never chosen.
    expect(envAuthMethod([{ type: 'env_var', id: 'x', name: 'X', vars: [] }], { A: '1' })).toBeUndefined();
    expect(envAuthMethod(undefined, { A: '1' })).toBeUndefined();
  });

  it('names what the agent offers, and recognises the auth-required code', () => {
    expect(authHint(CODEX)).toBe(
      '; the agent offers: Login with ChatGPT; Use CODEX_API_KEY (set CODEX_API_KEY and list it under "env"); Use OPENAI_API_KEY (set OPENAI_API_KEY and list it under "env")',
    );
    expect(authHint([])).toBe('');
    expect(isAuthRequired({ code: -32000, message: 'Authentication required' })).toBe(true);
    expect(isAuthRequired({ code: -32603 })).toBe(false);
    expect(isAuthRequired(undefined)).toBe(false);
  });
});
