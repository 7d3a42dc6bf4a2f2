import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-sim-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tapeFile = join(dir, 'tape.json');
writeFileSync(
  tapeFile,
  JSON.stringify({ name: 'serve demo', turns: [{ text: 'hi', tools: [{ shell: 'ls' }] }, { text: 'bye' }] }),
);

function axis(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [join(ROOT, 'bin/axis.js'), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
}

function collect(child: ChildProcessWithoutNullStreams) {
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { out, exit };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!check()) throw new Error('condition not reached');
}

const anthropicRequest = {
  model: 'm',
  max_tokens: 10,
  messages: [{ role: 'user', content: 'go' }],
  tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
};

describe('axis sim serve', () => {
  beforeAll(async () => {
    const { existsSync } = await import('node:fs');
    if (!existsSync(join(ROOT, 'dist/cli/main.js')))
      throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` first');
  });

  it('--json: prints the setup as JSON, logs NDJSON per request to stderr, exits 0 on SIGTERM', async () => {
    const child = axis(['sim', 'serve', '--tape', tapeFile, '--json']);
    const { out, exit } = collect(child);
    await until(() => out.stdout.includes('\n'));
    const setup = JSON.parse(out.stdout.split('\n')[0] as string);
    expect(setup).toMatchObject({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      tape: { name: 'serve demo', turns: 2, judge: 0 },
    });
    expect(Object.keys(setup.clients)).toEqual(['claude', 'codex', 'gemini', 'qwen', 'opencode']);
    expect(setup.clients.claude.env.ANTHROPIC_BASE_URL).toBe(setup.url);

    const res = await fetch(`${setup.url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify(anthropicRequest),
    });
    expect(res.status).toBe(200);
    await until(() => out.stderr.includes('\n'));
    const line = JSON.parse(out.stderr.split('\n')[0] as string);
    expect(line).toMatchObject({
      log: 'request',
      method: 'POST',
      path: '/v1/messages',
      provider: 'anthropic',
      answer: { kind: 'turn', turn: 0 },
      status: 200,
    });

    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('human output: base URL and per-CLI settings on stdout, one line per request on stderr, exits 0 on Ctrl-C', async () => {
    const child = axis(['sim', 'serve', '--tape', tapeFile]);
    const { out, exit } = collect(child);
    await until(() => out.stdout.includes('opencode:'));
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out.stdout)?.[1] as string;
    expect(out.stdout).toContain('serving tape "serve demo" (2 turns)');
    for (const needle of [
      'claude:',
      'export ANTHROPIC_BASE_URL',
      'config.toml',
      'wire_api = "responses"',
      'settings.json',
      'opencode.json',
    ]) {
      expect(out.stdout).toContain(needle);
    }
    await fetch(`${url}/v1/nothing`, { method: 'POST', body: '{}' });
    await until(() => out.stderr.includes('#1 '));
    expect(out.stderr).toMatch(/#1 POST \/v1\/nothing → 404 not found/);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('a bad tape exits 2 with the file and the path of every problem, and no stack trace', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ turns: [{ tools: [{ shell: 42 }] }, { next: [{ goto: 'x' }] }] }));
    const { out, exit } = collect(axis(['sim', 'serve', '--tape', bad]));
    expect(await exit).toBe(2);
    expect(out.stderr).toContain(`${bad}: turns[0].tools[0].shell: expected string, found number`);
    const badGoto = join(dir, 'bad-goto.json');
    writeFileSync(badGoto, JSON.stringify({ turns: [{ text: 'a', next: [{ goto: 1.5 }, { goto: -1 }] }] }));
    const gotoRun = collect(axis(['sim', 'serve', '--tape', badGoto]));
    expect(await gotoRun.exit).toBe(2);
    for (const [i, found] of [
      [0, '1.5'],
      [1, '-1'],
    ])
      expect(gotoRun.out.stderr).toContain(
        `${badGoto}: turns[0].next[${i}].goto: expected a turn id or a turn index (an integer ≥ 0), found ${found}`,
      );
    expect(out.stderr).not.toMatch(/\n\s+at /);
    const missing = collect(axis(['sim', 'serve', '--tape', join(dir, 'nope.json')]));
    expect(await missing.exit).toBe(2);
    expect(missing.out.stderr).toContain('nope.json: cannot read tape: ENOENT');
  });

  it('a judge entry whose match has the g or y flag answers every matching request, not every other one', async () => {
    const judgeTape = join(dir, 'judge-flags.json');
    writeFileSync(
      judgeTape,
      JSON.stringify({
        judge: [
          { match: '/rubric/gi', answer: { score: 90 } },
          { match: '/Grade the run/y', answer: { score: 70 } },
        ],
      }),
    );
    const child = axis(['sim', 'serve', '--tape', judgeTape, '--json']);
    const { out, exit } = collect(child);
    await until(() => out.stdout.includes('\n'));
    const { url } = JSON.parse(out.stdout.split('\n')[0] as string) as { url: string };
    const ask = async (prompt: string): Promise<string> => {
      const res = await fetch(`${url}/v1/messages`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: prompt }] }),
      });
      const body = (await res.json()) as { content: { text: string }[] };
      return body.content.map((c) => c.text).join('');
    };
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await ask('Use the RUBRIC below to score this transcript.'));
    for (let i = 0; i < 3; i++) answers.push(await ask('Grade the run against its goal.'));
    expect(answers).toEqual([...Array(4).fill('{"score":90}'), ...Array(3).fill('{"score":70}')]);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('a bad port exits 2', async () => {
    const { out, exit } = collect(axis(['sim', 'serve', '--tape', tapeFile, '--port', 'abc']));
    expect(await exit).toBe(2);
    expect(out.stderr).toContain('--port: expected an integer from 0 to 65535, found "abc"');
  });
});
