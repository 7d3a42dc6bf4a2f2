import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgentEnv, isSecretName, redact, secretValues } from '../../../src/exec/env.js';
import { spawnAgentProcess } from '../../../src/exec/process.js';
import { createWorkspace, removeWorkspace, type Workspace } from '../../../src/exec/workspace.js';

const HOST_VARS = {
  AXIS_TEST_RANDOM_HOST_VAR: 'leaky-value-123',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-should-not-leak',
  AXIS_TEST_PASSED_KEY: 'passed-through-secret-value',
};

let ws: Workspace;
beforeEach(async () => {
  Object.assign(process.env, HOST_VARS);
  ws = await createWorkspace();
});
afterEach(async () => {
  for (const name of Object.keys(HOST_VARS)) delete process.env[name];
  await removeWorkspace(ws);
});

/** The environment a real child process sees. */
async function childEnv(env: Record<string, string>): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const res = await spawnAgentProcess({
    command: '/bin/sh',
    args: ['-c', 'env'],
    cwd: ws.work,
    env,
    timeoutMs: 10_000,
    maxStdoutBytes: 1 << 20,
    maxStderrBytes: 1 << 16,
    onStdoutLine: (line) => {
      const eq = line.indexOf('=');
      if (eq > 0) seen[line.slice(0, eq)] = line.slice(eq + 1);
    },
  });
  expect(res.exitCode).toBe(0);
  return seen;
}

describe('buildAgentEnv', () => {
  it('does not pass the host environment to the child', async () => {
    const seen = await childEnv(buildAgentEnv({ home: ws.home, tmpDir: ws.tmp }));
    expect(seen.AXIS_TEST_RANDOM_HOST_VAR).toBeUndefined();
    expect(seen.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(seen.AXIS_TEST_PASSED_KEY).toBeUndefined();
    expect(seen.PATH).toBe(process.env.PATH);
    expect(seen.HOME).toBe(ws.home);
    expect(seen.TMPDIR).toBe(ws.tmp);
    expect(seen.TERM).toBe('dumb');
    expect(seen.XDG_CONFIG_HOME).toBe(`${ws.home}/.config`);
    expect(seen.XDG_CACHE_HOME).toBe(`${ws.home}/.cache`);
    expect(seen.XDG_DATA_HOME).toBe(`${ws.home}/.local/share`);
    expect(seen.XDG_STATE_HOME).toBe(`${ws.home}/.local/state`);
    expect(seen.LANG).toBeTruthy();
    expect(seen.SHELL).toBeTruthy();
  });

  it('passes listed names and explicit values, explicit values winning', async () => {
    const env = buildAgentEnv({
      home: ws.home,
      passthrough: ['AXIS_TEST_PASSED_KEY', 'AXIS_TEST_UNSET_NAME'],
      values: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', TERM: 'xterm', HOME: '/elsewhere' },
    });
    const seen = await childEnv(env);
    expect(seen.AXIS_TEST_PASSED_KEY).toBe('passed-through-secret-value');
    expect('AXIS_TEST_UNSET_NAME' in seen).toBe(false);
    expect(seen.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:9');
    expect(seen.TERM).toBe('xterm');
    expect(seen.HOME).toBe('/elsewhere');
    expect(seen.AWS_SECRET_ACCESS_KEY).toBeUndefined();
  });

  it('reads from an explicit host env when given', () => {
    const env = buildAgentEnv({
      home: '/h',
      hostEnv: { PATH: '/p', LANG: 'de_DE.UTF-8', TZ: 'UTC', USER: 'u', X: 'y' },
    });
    expect(env).toMatchObject({
      PATH: '/p',
      LANG: 'de_DE.UTF-8',
      TZ: 'UTC',
      USER: 'u',
      LOGNAME: 'u',
      SHELL: '/bin/sh',
    });
    expect(env.X).toBeUndefined();
    expect(env.LC_ALL).toBeUndefined();
  });
});

describe('secretValues / redact', () => {
  it('finds values of secret-looking names, longest first', () => {
    const values = secretValues({
      ANTHROPIC_API_KEY: 'sk-ant-1234567890',
      GITHUB_TOKEN: 'ghp_abcdefghij',
      DB_PASSWORD: 'hunter2hunter2',
      MY_CREDENTIALS: 'credential-value',
      CLAUDE_CODE_OAUTH: 'oauth-secret-xyz',
      GIT_AUTHOR_NAME: 'Jane Doe Smith',
      PATH: '/usr/bin:/bin',
      SHORT_KEY: 'abc',
    });
    expect(values).toEqual([
      'sk-ant-1234567890',
      'credential-value',
      'oauth-secret-xyz',
      'ghp_abcdefghij',
      'hunter2hunter2',
    ]);
  });

  it('recognizes names case-insensitively but not AUTHOR', () => {
    expect(isSecretName('openai_api_key')).toBe(true);
    expect(isSecretName('AUTH_HEADER')).toBe(true);
    expect(isSecretName('GIT_AUTHOR_EMAIL')).toBe(false);
    expect(isSecretName('MCP_AUTHORIZATION')).toBe(true);
    expect(isSecretName('HOME')).toBe(false);
  });

  it('takes each line of a multi-line value too: output is scrubbed line by line', () => {
    const body = ['MIIEowIBAAKCAQEA7bq9f1cx', 'Zm9vYmFyYmF6cXV4cXV1eA', 'short'];
    const pem = `-----BEGIN RSA PRIVATE KEY-----\r\n${body.join('\n')}\n-----END RSA PRIVATE KEY-----\n`;
    const values = secretValues({ DEPLOY_KEY: pem });
    expect(values).toContain(pem);
    expect(values).toEqual(expect.arrayContaining([body[0], body[1], '-----BEGIN RSA PRIVATE KEY-----']));
    expect(values).not.toContain('short'); // under 8 characters: not masked on its own
    expect(values.indexOf(pem)).toBe(0); // longest first: the whole value is masked whole
    expect(redact(`key line: ${body[1]}`, values)).toBe('key line: [REDACTED]');
  });

  it('replaces every occurrence', () => {
    const secrets = secretValues({ API_KEY: 'sk-secret-value-1', OTHER_TOKEN: 'tok-abcdefgh' });
    expect(redact('a sk-secret-value-1 b tok-abcdefgh c sk-secret-value-1', secrets)).toBe(
      'a [REDACTED] b [REDACTED] c [REDACTED]',
    );
    expect(redact('nothing here', secrets)).toBe('nothing here');
  });
});
