/**
 * Agent entries written for upstream AXIS (netlify/axis 1.17) run the real agent CLIs here as their
 * authors meant: `axis run` against the simulator, real child processes, real files.
 */
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axis, buildDist, ROOT } from '../run/helpers.js';
import { writeIn } from '../../unit/run/helpers.js';

const T = 120_000;
const dirs: string[] = [];

/** A simulated project: one scenario `hello` whose tape just answers, and these agent entries. */
function project(agents: unknown[]): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'axis-upstream-agents-')));
  dirs.push(dir);
  writeIn(dir, 'axis.config.json', { scenarios: './scenarios', agents, settings: { simulate: true } });
  writeIn(dir, 'scenarios/hello.json', { name: 'Hello', prompt: 'Say hello', judge: 'It said hello' });
  writeIn(dir, 'tapes/hello.json', { turns: [{ text: 'hello' }] });
  return dir;
}

/** {@link project} of one entry whose adapter is `file` of the upstream fixture's adapters/, copied in. */
function moduleProject(entry: { agent: string; command?: string }, file: string): string {
  const dir = project([entry]);
  cpSync(join(ROOT, 'test/fixtures/upstream-project/adapters'), join(dir, 'adapters'), { recursive: true });
  const config = JSON.parse(readFileSync(join(dir, 'axis.config.json'), 'utf8')) as Record<string, unknown>;
  writeIn(dir, 'axis.config.json', { ...config, adapters: { [entry.agent]: `./adapters/${file}` } });
  return dir;
}

interface Pair {
  agentName: string;
  status: string;
  reason?: string;
}
function pairs(dir: string, stdout: string): Pair[] {
  const id = (JSON.parse(stdout) as { reportId: string }).reportId;
  const manifest = JSON.parse(readFileSync(join(dir, '.axis/reports', id, 'report.json'), 'utf8')) as {
    results: Pair[];
  };
  return manifest.results;
}

beforeAll(buildDist);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('upstream agent entries', () => {
  it(
    "codex flags { 'skip-git-repo-check': true } run codex (upstream's default flag, not passed twice); false omits it",
    async () => {
      const on = project([{ agent: 'codex', flags: { 'skip-git-repo-check': true } }]);
      const r = await axis(['run', '--no-score', '--json', '-v'], on);
      expect(r.stderr).not.toContain('cannot be used multiple times');
      expect(pairs(on, r.stdout)).toMatchObject([{ agentName: 'codex', status: 'completed' }]);
      expect(r.code, r.stderr).toBe(0);

      expect(r.stderr.match(/--skip-git-repo-check/g)).toHaveLength(1);

      // false: the flag is left out, as the docs say of `false`.
      const off = project([{ agent: 'codex', flags: { 'skip-git-repo-check': false } }]);
      const o = await axis(['run', '--no-score', '--json', '-v'], off);
      expect(o.code, o.stderr).toBe(0);
      expect(o.stderr).toMatch(/spawn: \S*codex exec --json /);
      expect(o.stderr).not.toContain('--skip-git-repo-check');
    },
    T,
  );

  it(
    "codex flags { 'full-auto': true } (upstream's default) run codex in its workspace-write sandbox; codex no longer has --full-auto",
    async () => {
      const dir = project([{ agent: 'codex', model: 'gpt-5-codex', flags: { 'full-auto': true } }]);
      const r = await axis(['run', '--no-score', '--json', '-v'], dir);
      expect(r.stderr).not.toContain("unexpected argument '--full-auto'");
      expect(pairs(dir, r.stdout)).toMatchObject([{ agentName: 'codex|gpt-5-codex', status: 'completed' }]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/spawn: \S*codex exec .*--sandbox workspace-write/);
      expect(r.stderr).not.toContain('--dangerously-bypass-approvals-and-sandbox');
    },
    T,
  );

  it(
    'an upstream adapter module gets input.config.command (resolved from the config dir) and input.scenario',
    async () => {
      const dir = moduleProject({ agent: 'echo-sh', command: './adapters/echo.sh' }, 'command-adapter.ts');
      const r = await axis(['run', '--no-score', '--json'], dir);
      expect(r.code, r.stderr).toBe(0);
      const id = (JSON.parse(r.stdout) as { reportId: string }).reportId;
      const detail = readFileSync(join(dir, '.axis/reports', id, 'scenarios/hello/echo-sh.json'), 'utf8');
      expect(detail).toContain('hello (Hello): Say hello');
    },
    T,
  );

  it(
    'lifecycle scripts get AXIS_ADAPTER, the adapter upstream put in AXIS_AGENT (here the identity codex|gpt-5-codex)',
    async () => {
      const dir = project([{ agent: 'codex', model: 'gpt-5-codex' }]);
      const note = 'echo "agent=$AXIS_AGENT adapter=$AXIS_ADAPTER model=$AXIS_MODEL" > "$AXIS_OUTPUT"';
      writeIn(dir, 'scenarios/hello.json', {
        name: 'Hello',
        prompt: 'Say hello',
        judge: 'It said hello',
        setup: [{ action: 'run_script', command: note }],
      });
      const r = await axis(['run', '--no-score', '--json'], dir);
      expect(r.code, r.stderr).toBe(0);
      const id = (JSON.parse(r.stdout) as { reportId: string }).reportId;
      const detail = readFileSync(
        join(dir, '.axis/reports', id, 'scenarios/hello/codex|gpt-5-codex.json'),
        'utf8',
      );
      expect(detail).toContain('agent=codex|gpt-5-codex adapter=codex model=gpt-5-codex');
    },
    T,
  );

  it(
    'an upstream adapter module may call input.onAgentReady, onTokenProgress and registerCleanup unguarded',
    async () => {
      const dir = moduleProject({ agent: 'callbacks' }, 'callbacks-adapter.ts');
      const r = await axis(['run', '--no-score', '--json'], dir);
      expect(r.stdout).not.toContain('is not a function');
      expect(pairs(dir, r.stdout)).toMatchObject([{ agentName: 'callbacks', status: 'completed' }]);
      expect(r.code, r.stderr).toBe(0);
    },
    T,
  );
});
