import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../src/sim/index.js';
import { ROOT } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-sim-rr-cli-'));
const SECRET = 'sk-ant-cli-secret-0123456789';
let upstream: Simulator;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` first');
  upstream = await startSimulator({
    tape: { turns: [{ text: 'Listing.', tools: [{ shell: 'ls' }] }, { text: 'Done.' }] },
  });
});
afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function axis(args: string[]) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [join(ROOT, 'bin/axis.js'), ...args],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out, exit };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error('condition not reached');
}

const BASH = {
  name: 'Bash',
  input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const first = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'go' }], tools: [BASH] };
const afterLs = (id: string, output: string) => ({
  ...first,
  messages: [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
  ],
});

async function call(url: string, body: unknown) {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SECRET },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const toolUseId = (json: Record<string, unknown>) =>
  (json.content as { type: string; id: string }[]).find((b) => b.type === 'tool_use')?.id as string;

describe('axis sim record / replay', () => {
  const tape = join(dir, 'tapes/run.json');

  it('record --json: forwards, logs NDJSON per exchange, writes the tape on SIGTERM and exits 0', async () => {
    const rec = axis(['sim', 'record', '--upstream', upstream.url, '--out', tape, '--json']);
    await until(() => rec.out.stdout.includes('\n'));
    const setup = JSON.parse(rec.out.stdout.split('\n')[0] as string);
    expect(setup).toMatchObject({ upstream: upstream.url, out: tape });
    expect(setup.clients.claude.env).toMatchObject({
      ANTHROPIC_BASE_URL: setup.url,
      ANTHROPIC_API_KEY: '<your API key>',
    });
    const a = await call(setup.url, first);
    expect(a.status).toBe(200);
    const id = toolUseId(a.json);
    const b = await call(setup.url, afterLs(id, 'out.txt'));
    expect(b.json.content).toEqual([{ type: 'text', text: 'Done.' }]);
    await until(() => rec.out.stderr.split('\n').filter(Boolean).length >= 2);
    const lines = rec.out.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.log, l.status, l.recorded])).toEqual([
      ['exchange', 200, { kind: 'turn', turn: 0 }],
      ['exchange', 200, { kind: 'turn', turn: 1 }],
    ]);
    rec.child.kill('SIGTERM');
    expect(await rec.exit).toBe(0);
    expect(rec.out.stderr).toContain('{"log":"stopped","turns":2,"side":0');
    const text = readFileSync(tape, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text)).toMatchObject({
      complete: true,
      turns: [
        { text: 'Listing.', tools: [{ shell: 'ls' }], results: [{ output: 'out.txt' }] },
        { text: 'Done.' },
      ],
    });
  });

  it('record, human output: base URL and settings on stdout, one line per exchange, summary on Ctrl-C', async () => {
    const out = join(dir, 'human.json');
    const rec = axis(['sim', 'record', '-u', upstream.url, '-o', out]);
    await until(() => rec.out.stdout.includes('opencode:'));
    const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(rec.out.stdout)?.[1] as string;
    expect(rec.out.stdout).toContain(`recording ${upstream.url} into ${out}`);
    expect(rec.out.stdout).toContain('export ANTHROPIC_API_KEY="<your API key>"');
    await call(url, first);
    await until(() => rec.out.stderr.includes('#1 '));
    expect(rec.out.stderr).toMatch(
      /#1 POST \/v1\/messages → 200 recorded turn 0 \[1 tools\] "Listing\." \+ Bash/,
    );
    rec.child.kill('SIGINT');
    expect(await rec.exit).toBe(0);
    expect(rec.out.stderr).toContain(`axis sim: wrote ${out} (1 turn, 0 side calls)`);
  });

  it('record: a password or key in the --upstream URL is shown and written as <redacted>', async () => {
    const out = join(dir, 'credentials.json');
    // A short password too: the URL's structure, not a length threshold, says what is secret.
    const withCreds = upstream.url.replace('http://', 'http://team:hunter2@') + '/?key=goog-query-key-4242';
    const rec = axis(['sim', 'record', '-u', withCreds, '-o', out]);
    await until(() => rec.out.stdout.includes('opencode:'));
    const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(rec.out.stdout)?.[1] as string;
    expect((await call(url, first)).status).toBe(200);
    await until(() => rec.out.stderr.includes('#1 '));
    rec.child.kill('SIGTERM');
    expect(await rec.exit).toBe(0);
    const written = readFileSync(out, 'utf8');
    for (const text of [rec.out.stdout, rec.out.stderr, written]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('goog-query-key-4242');
    }
    expect(JSON.parse(written).upstream).toBe(
      upstream.url.replace('http://', 'http://team:<redacted>@') + '/?key=<redacted>',
    );
  });

  it('record: a query parameter whose name says token, secret or key (auth_token, client_secret, access_key) is <redacted> too', async () => {
    const out = join(dir, 'query-credentials.json');
    const secrets = [
      'gw-auth-token-4242',
      'gw-client-secret-4242',
      'gw-access-key-4242',
      'agent-x-api-key-4242',
    ];
    const withCreds = `${upstream.url}/?auth_token=${secrets[0]}&client_secret=${secrets[1]}&access_key=${secrets[2]}&api-version=2024-10-01`;
    const rec = axis(['sim', 'record', '-u', withCreds, '-o', out]);
    await until(() => rec.out.stdout.includes('opencode:'));
    const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(rec.out.stdout)?.[1] as string;
    const res = await fetch(`${url}/v1/messages?x-api-key=${secrets[3]}`, {
      method: 'POST',
      body: JSON.stringify(first),
    });
    expect(res.status).toBe(200);
    await until(() => rec.out.stderr.includes('#1 '));
    rec.child.kill('SIGTERM');
    expect(await rec.exit).toBe(0);
    const written = readFileSync(out, 'utf8');
    for (const text of [rec.out.stdout, rec.out.stderr, written])
      for (const secret of secrets) expect(text).not.toContain(secret);
    expect(JSON.parse(written).upstream).toBe(
      `${upstream.url}/?auth_token=<redacted>&client_secret=<redacted>&access_key=<redacted>&api-version=2024-10-01`,
    );
    expect(rec.out.stderr).toContain('/v1/messages?x-api-key=<redacted>');
  });

  it('record: a request whose query holds a broken %-escape is forwarded and logged; the recorder keeps running', async () => {
    const out = join(dir, 'broken-escape.json');
    const rec = axis(['sim', 'record', '-u', upstream.url, '-o', out]);
    await until(() => rec.out.stdout.includes('opencode:'));
    const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(rec.out.stdout)?.[1] as string;
    const res = await fetch(`${url}/v1/messages?%E0%A4%A=1&auth%5Ftoken=broken-escape-token-42`, {
      method: 'POST',
      body: JSON.stringify(first),
    });
    expect(res.status).toBe(200);
    expect((await call(url, first)).status).toBe(200);
    await until(() => rec.out.stderr.includes('#2 '));
    rec.child.kill('SIGTERM');
    expect(await rec.exit).toBe(0);
    expect(rec.out.stderr).toContain('#1 POST /v1/messages?%E0%A4%A=1&auth%5Ftoken=<redacted> → 200');
    expect(rec.out.stderr).not.toMatch(/URIError|\n\s+at /);
    // In the --upstream password too: the recorder starts.
    const pw = axis([
      'sim',
      'record',
      '-u',
      upstream.url.replace('http://', 'http://u:%E0%A4%A@'),
      '-o',
      out,
    ]);
    await until(() => pw.out.stdout.includes('opencode:') || pw.child.exitCode !== null);
    pw.child.kill('SIGTERM');
    expect(await pw.exit).toBe(0);
    expect(pw.out.stderr).not.toContain('Internal error');
  });

  it('record: a SIGTERM sent the moment the URL shows stops it cleanly and writes the tape', async () => {
    // A supervisor that stops the recorder as soon as it reads the URL: the handler is on before it prints.
    const out = join(dir, 'stopped-at-once.json');
    const rec = axis(['sim', 'record', '-u', upstream.url, '-o', out]);
    rec.child.stdout.once('data', () => rec.child.kill('SIGTERM'));
    expect(await rec.exit).toBe(0);
    expect(rec.out.stderr).toContain(`axis sim: wrote ${out}`);
    expect(existsSync(out)).toBe(true);
  });

  it("record: the --upstream URL's user, password and query are sent upstream with each request", async () => {
    const seen: { url?: string; auth?: string } = {};
    const gateway = createServer((req, res) => {
      seen.url = req.url;
      seen.auth = req.headers.authorization;
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content: [{ type: 'text', text: 'Hi.' }],
            stop_reason: 'end_turn',
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const port = (gateway.address() as AddressInfo).port;
    try {
      const out = join(dir, 'gateway.json');
      const rec = axis([
        'sim',
        'record',
        '-u',
        `http://team:hunter2@127.0.0.1:${port}/gw?key=k-42`,
        '-o',
        out,
      ]);
      await until(() => rec.out.stdout.includes('opencode:'));
      const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(rec.out.stdout)?.[1] as string;
      expect((await call(url, first)).status).toBe(200);
      rec.child.kill('SIGTERM');
      expect(await rec.exit).toBe(0);
      expect(seen.url).toBe('/gw/v1/messages?key=k-42');
      expect(seen.auth).toBe(`Basic ${Buffer.from('team:hunter2').toString('base64')}`);
    } finally {
      gateway.close();
    }
  });

  it('replay --json: serves the tape, logs a divergence event as it happens, exits 0 on SIGTERM', async () => {
    const rep = axis(['sim', 'replay', '--tape', tape, '--json']);
    await until(() => rep.out.stdout.includes('\n'));
    const setup = JSON.parse(rep.out.stdout.split('\n')[0] as string);
    expect(setup).toMatchObject({ tape: { turns: 2, side: 0, complete: true }, strict: false });
    const a = await call(setup.url, first);
    expect(a.json.content).toMatchObject([
      { type: 'text', text: 'Listing.' },
      { type: 'tool_use', input: { command: 'ls' } },
    ]);
    const b = await call(setup.url, afterLs(toolUseId(a.json), 'something else'));
    expect(b.json.content).toEqual([{ type: 'text', text: 'Done.' }]);
    await until(() => rep.out.stderr.includes('"divergence"'));
    const event = rep.out.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.log === 'event');
    expect(event).toMatchObject({
      type: 'divergence',
      turn: 0,
      data: { kind: 'tool_result', expected: 'out.txt', actual: 'something else' },
    });
    rep.child.kill('SIGTERM');
    expect(await rep.exit).toBe(0);
    expect(rep.out.stderr).toContain('{"log":"stopped","divergences":1}');
  });

  it('replay --strict, human output: the diverged request gets a 400 and the event is printed', async () => {
    const rep = axis(['sim', 'replay', '-t', tape, '--strict']);
    await until(() => rep.out.stdout.includes('opencode:'));
    expect(rep.out.stdout).toContain('replaying "recorded from');
    expect(rep.out.stdout).toContain('(2 turns, strict)');
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(rep.out.stdout)?.[1] as string;
    const a = await call(url, first);
    const b = await call(url, afterLs(toolUseId(a.json), 'nope'));
    expect(b.status).toBe(400);
    await until(() => rep.out.stderr.includes('! divergence'));
    expect(rep.out.stderr).toContain(
      '! divergence: turn 0: tool result differs from the recording: expected "out.txt", got "nope"',
    );
    rep.child.kill('SIGINT');
    expect(await rep.exit).toBe(0);
    expect(rep.out.stderr).toContain('axis sim: stopped (1 divergence)');
  });

  it('bad input exits 2 with a clear message and no stack trace', async () => {
    const badUrl = axis(['sim', 'record', '--upstream', 'api.anthropic.com', '--out', join(dir, 'x.json')]);
    expect(await badUrl.exit).toBe(2);
    expect(badUrl.out.stderr).toContain(
      '--upstream: expected an http:// or https:// URL, found "api.anthropic.com"',
    );
    // A mistyped scheme or a missing one: the message names the URL without its password or key.
    for (const [given, shown] of [
      [
        'htps://team:gw-pass-4242@gw.example/?key=gw-key-4242',
        'htps://team:<redacted>@gw.example/?key=<redacted>',
      ],
      ['team:gw-pass-4242@gw.example', 'team:<redacted>@gw.example'],
    ]) {
      const typo = axis(['sim', 'record', '--upstream', given as string, '--out', join(dir, 'x.json')]);
      expect(await typo.exit).toBe(2);
      expect(typo.out.stderr).toContain(`--upstream: expected an http:// or https:// URL, found "${shown}"`);
      expect(typo.out.stderr).not.toMatch(/gw-pass-4242|gw-key-4242/);
    }
    const handTape = join(dir, 'hand.json');
    writeFileSync(handTape, JSON.stringify({ turns: [{ text: 'hi' }] }));
    const notRecorded = axis(['sim', 'replay', '--tape', handTape]);
    expect(await notRecorded.exit).toBe(2);
    expect(notRecorded.out.stderr).toContain(
      `${handTape}: format: expected "axis-sim-recording", found null`,
    );
    expect(notRecorded.out.stderr).not.toMatch(/\n\s+at /);
    const badPort = axis(['sim', 'replay', '--tape', tape, '--port', '99999']);
    expect(await badPort.exit).toBe(2);
  });
});
