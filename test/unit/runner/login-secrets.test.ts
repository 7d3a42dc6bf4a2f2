import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuthResolution } from '../../../src/adapters/types.js';
import { loginSecrets } from '../../../src/runner/secrets.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-login-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loginSecrets', () => {
  it('takes every string of 8+ characters of the login files, whatever its key is called', () => {
    const codex = join(dir, 'codex-auth.json');
    writeFileSync(
      codex,
      JSON.stringify({ OPENAI_API_KEY: null, tokens: { access_token: 'eyJcodex-access' } }),
    );
    const opencode = join(dir, 'opencode-auth.json');
    writeFileSync(
      opencode,
      JSON.stringify({ anthropic: { type: 'oauth', refresh: 'oc-refresh-1', access: 'oc-acc-2' } }),
    );
    const plain = join(dir, 'token.txt');
    writeFileSync(plain, 'first-line-token\nshort\n');
    const auth = new Map<string, AuthResolution>([
      ['codex', { source: 'local_login', files: [{ from: codex, to: '.codex/auth.json' }] }],
      [
        'opencode',
        {
          source: 'local_login',
          files: [
            { from: opencode, to: 'x' },
            { from: plain, to: 'y' },
          ],
        },
      ],
      [
        'claude',
        {
          source: 'local_login',
          files: [{ from: '/nonexistent', to: 'z', content: '{"a":"sanitized-copy"}' }],
        },
      ],
      ['keyed', { source: 'env', variable: 'ANTHROPIC_API_KEY' }],
      ['gone', { source: 'local_login', files: [{ from: join(dir, 'missing.json'), to: 'w' }] }],
    ]);
    expect(loginSecrets(auth).sort()).toEqual(
      ['eyJcodex-access', 'oc-refresh-1', 'oc-acc-2', 'first-line-token', 'sanitized-copy'].sort(),
    );
  });
});
