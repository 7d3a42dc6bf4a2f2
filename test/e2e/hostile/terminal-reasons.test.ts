/**
 * An agent's error output quoted in a failed job's reason reaches the terminal and the GitHub annotations
 * without its control characters: an escape sequence in a crashing agent's stderr cannot retitle the
 * window, clear the screen or recolour the log.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, removeTempDirs } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

const CRASH = "#!/bin/sh\nprintf 'fatal: \\033]0;pwned\\007\\033[2Jboom\\n' >&2\nexit 3\n";

describe('control characters in a failed job reason', () => {
  it('are left out of the list lines and the github annotations', async () => {
    const dir = makeProject({
      'scenarios/s.json': { name: 'S', prompt: 'p', judge: 'j' },
    });
    const agent = join(dir, 'crash.sh');
    writeFileSync(agent, CRASH);
    chmodSync(agent, 0o755);
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: './scenarios', agents: [{ agent: 'command', name: 'c', command: agent }] }),
    );
    const r = await axis(['run', '--no-score'], dir, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' });
    expect(r.code).toBe(1);
    const out = r.stdout + r.stderr;
    expect(out).toContain('boom');
    expect(out).toContain('::error title=AXIS s');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0007\u001b]/);
  }, 30_000);
});

describe('bidi controls in a failed job reason', () => {
  // A right-to-left override reorders the rest of the line it is shown on (Trojan Source): in the CI log
  // an annotation, and in the job summary a failure line, would read other than it is.
  const BIDI = /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

  it('are left out of the github annotations and the step summary', async () => {
    const dir = makeProject({ 'scenarios/s.json': { name: 'S', prompt: 'p', judge: 'j' } });
    const agent = join(dir, 'crash.sh');
    writeFileSync(
      agent,
      "#!/bin/sh\nprintf 'fatal: \\342\\200\\256gnp.exe \\342\\201\\247x boom\\n' >&2\nexit 3\n",
    );
    chmodSync(agent, 0o755);
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({ scenarios: './scenarios', agents: [{ agent: 'command', name: 'c', command: agent }] }),
    );
    const summary = join(dir, 'summary.md');
    const r = await axis(['run', '--no-score'], dir, {
      GITHUB_ACTIONS: 'true',
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(r.code).toBe(1);
    const annotation = r.stdout.split('\n').find((l) => l.startsWith('::error title=AXIS s'));
    expect(annotation).toContain('gnp.exe');
    expect(annotation).not.toMatch(BIDI);
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('gnp.exe');
    expect(md).not.toMatch(BIDI);
  }, 30_000);
});

describe('control characters in lifecycle output', () => {
  const ESC = "printf 'out\\033]0;pwned\\007\\033[2Jboom\\n'; printf 'err\\033[31mred\\n' >&2";

  function project(hook: 'beforeAll' | 'afterAll'): string {
    const dir = makeProject({
      'scenarios/s.json': {
        name: 'S',
        prompt: 'p',
        judge: 'j',
        setup: [{ action: 'run_script', command: ESC }],
      },
    });
    const agent = join(dir, 'ok.sh');
    writeFileSync(agent, `#!/bin/sh\necho '{"type":"result","text":"ok"}'\n`);
    chmodSync(agent, 0o755);
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: './scenarios',
        agents: [{ agent: 'command', name: 'c', command: agent }],
        [hook]: [{ action: 'run_script', command: `${ESC}; exit 1` }],
      }),
    );
    return dir;
  }

  it('are left out of -v lines and of a failed afterAll or beforeAll message', async () => {
    const after = await axis(['run', '--no-score', '-v'], project('afterAll'));
    expect(after.code).toBe(1);
    const out = after.stdout + after.stderr;
    expect(out).toContain('[setup] out]0;pwned[2Jboom');
    expect(out).toContain('afterAll[0]: Lifecycle action failed');
    expect(out).toContain('err[31mred');
    // eslint-disable-next-line no-control-regex
    expect(out).not.toMatch(/[\u0007\u001b]/);

    const before = await axis(['run', '--no-score'], project('beforeAll'));
    expect(before.code).toBe(1);
    expect(before.stderr).toContain('beforeAll[0]: Lifecycle action failed');
    expect(before.stderr).toContain('err[31mred');
    // eslint-disable-next-line no-control-regex
    expect(before.stdout + before.stderr).not.toMatch(/[\u0007\u001b]/);
  }, 60_000);
});

describe('GitHub Actions workflow commands in agent text', () => {
  // The runner obeys `::cmd::` at a line's start (after spaces) and `##[cmd]` anywhere in a line of a
  // step's log: an agent could add annotations, mask text or stop AXIS's own commands.
  const AGENT = [
    `process.stdout.write(JSON.stringify({ type: 'text', text: 'hi\\n  ::warning title=Fake::text\\nsee ##[add-mask]abc' }) + '\\n');`,
    `process.stdout.write(JSON.stringify({ type: 'result', text: 'done\\n::stop-commands::tok\\n\\u2003::warning::em\\n\\u3000::add-mask::ideo' }) + '\\n');`,
    `process.stderr.write('::error file=src/a.ts,line=1::stderr\\n');`,
    `process.stdout.write(JSON.stringify({ type: 'error', message: '::error::first ##[error]second' }) + '\\n');`,
    'process.exit(3);',
  ].join('\n');
  /**
   * The runner trims every Unicode space (.NET TrimStart: NBSP, EM SPACE, IDEOGRAPHIC SPACE…) before it
   * looks for `::`, as JavaScript's \s does.
   * A line of AXIS's output the runner would take as a command, AXIS's own annotations aside (the runner
   * reads a line that parses as `::cmd::` no further).
   */
  const commands = (out: string) =>
    out
      .split('\n')
      .filter((l) => !l.startsWith('::error title=AXIS ') && (/^\s*::/.test(l) || l.includes('##[')));

  it('are shown but not obeyed: axis run (-v) and axis reports <id> <scenario>', async () => {
    const dir = makeProject({
      'scenarios/s.json': {
        name: 'S',
        prompt: 'p',
        judge: 'j',
        setup: [{ action: 'run_script', command: "printf 'ok\\n::notice::from setup\\n'" }],
      },
    });
    writeFileSync(join(dir, 'agent.js'), AGENT);
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: './scenarios',
        agents: [
          {
            agent: 'command',
            name: 'c',
            command: process.execPath,
            args: [join(dir, 'agent.js')],
            output: 'ndjson',
          },
        ],
      }),
    );
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '' };
    const run = await axis(['run', '--no-score', '-v'], dir, env);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error title=AXIS s');
    const shown = await axis(['reports', 'latest', 's'], dir, env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('warning title=Fake');
    for (const out of [run.stdout, run.stderr, shown.stdout, shown.stderr]) expect(commands(out)).toEqual([]);
  }, 30_000);
});
