import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT_TIMEOUT_S } from '../../../src/config/scenario-resolve.js';
import type { LifecycleAction } from '../../../src/config/types.js';
import { buildAgentEnv } from '../../../src/exec/env.js';
import {
  MAX_NOTES_BYTES,
  planCopy,
  resolveDestination,
  runLifecyclePhase,
  type PhaseResult,
  type RunPhaseOptions,
} from '../../../src/runner/lifecycle.js';
import { createWorkspace, removeWorkspace, type Workspace } from '../../../src/exec/workspace.js';
import { isAlive } from '../exec/helpers.js';

// These cases read pids the child prints, which only mean something outside a PID namespace: they test
// the process-group fallback (the namespace mode is covered by test/e2e/hostile/orphans.test.ts).
process.env.AXIS_CONTAINMENT = 'process-group';

let ws: Workspace;
let configDir: string;

beforeEach(async () => {
  ws = await createWorkspace();
  configDir = mkdtempSync(join(tmpdir(), 'axis-cfg-test-'));
});
afterEach(async () => {
  await removeWorkspace(ws);
  rmSync(configDir, { recursive: true, force: true });
});

function phase(actions: LifecycleAction[], extra: Partial<RunPhaseOptions> = {}): Promise<PhaseResult> {
  return runLifecyclePhase({
    phase: 'setup',
    actions,
    cwd: ws.work,
    configDir,
    workspace: ws.work,
    env: buildAgentEnv({ home: ws.home, tmpDir: ws.tmp }),
    killGraceMs: 200,
    ...extra,
  });
}

const script = (command: string, timeout?: number): LifecycleAction => ({
  action: 'run_script',
  command,
  timeout: timeout ?? DEFAULT_SCRIPT_TIMEOUT_S,
});
const copy = (match: string, destination: string): LifecycleAction => ({
  action: 'copy',
  match,
  destination,
});

describe('run_script', () => {
  it('runs in the workspace and returns what was written to $AXIS_OUTPUT as notes', async () => {
    const res = await phase([
      script('pwd > where.txt; printf "## Setup\\n\\nfirst\\n" >> "$AXIS_OUTPUT"'),
      script('echo "second   " >> "$AXIS_OUTPUT"; printf "\\n\\n\\n" >> "$AXIS_OUTPUT"'),
    ]);
    expect(res.ok).toBe(true);
    expect(res.failure).toBeUndefined();
    expect(res.actionsRun).toBe(2);
    expect(res.notes).toBe('## Setup\n\nfirst\nsecond');
    expect(readFileSync(join(ws.work, 'where.txt'), 'utf8').trim()).toBe(ws.work);
  });

  it('exports the AXIS_* variables that are set, and only those', async () => {
    const res = await phase([script('env | grep "^AXIS_" | sort >> "$AXIS_OUTPUT"')], {
      phase: 'teardown',
      vars: {
        home: ws.home,
        runIndex: 2,
        scenario: 'cms/post@fast',
        agent: 'claude-code',
        variant: 'fast',
        model: 'opus',
      },
    });
    const vars = Object.fromEntries(
      res.notes.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(vars).toMatchObject({
      AXIS_WORKSPACE: ws.work,
      AXIS_CONFIG_DIR: configDir,
      AXIS_HOME: ws.home,
      AXIS_RUN_INDEX: '2',
      AXIS_SCENARIO: 'cms/post@fast',
      AXIS_AGENT: 'claude-code',
      AXIS_PHASE: 'teardown',
      AXIS_VARIANT: 'fast',
      AXIS_MODEL: 'opus',
    });
    expect(vars.AXIS_OUTPUT).toMatch(/teardown-notes\.md$/);
    expect(vars.AXIS_REPORT_DIR).toBeUndefined();
  });

  it('gives afterAll its report dir and extra variables', async () => {
    const res = await phase([script('echo "$AXIS_PHASE $AXIS_REPORT_DIR $AXIS_TOTAL" >> "$AXIS_OUTPUT"')], {
      phase: 'afterAll',
      cwd: configDir,
      workspace: configDir,
      vars: { reportDir: '/r/1', extra: { AXIS_TOTAL: '7' } },
    });
    expect(res.notes).toBe('afterAll /r/1 7');
  });

  it('stops at the first failure, naming the command, exit code and stderr, and keeps the notes', async () => {
    const res = await phase([
      script('echo "before failing" >> "$AXIS_OUTPUT"; echo "npm ERR! missing script" >&2; exit 3'),
      script('touch should-not-exist'),
    ]);
    expect(res.ok).toBe(false);
    expect(res.actionsRun).toBe(1);
    expect(res.notes).toBe('before failing');
    expect(existsSync(join(ws.work, 'should-not-exist'))).toBe(false);
    expect(res.failure).toMatchObject({
      actionIndex: 0,
      action: 'run_script',
      exitCode: 3,
      timedOut: false,
      stderrTail: 'npm ERR! missing script',
    });
    expect(res.failure!.message).toContain('exited with code 3');
    expect(res.failure!.message).toContain('"echo \\"before failing\\"');
    expect(res.failure!.message).toContain('npm ERR! missing script');
  });

  it('falls back to stdout in the message when stderr is empty', async () => {
    const res = await phase([script('echo "only on stdout"; exit 1')]);
    expect(res.failure!.message).toMatch(/stdout:\nonly on stdout$/);
  });

  it('times out, kills the script and says so', async () => {
    const res = await phase([script('echo $$ > pid.txt; sleep 30', 0.5)]);
    expect(res.ok).toBe(false);
    expect(res.failure!.timedOut).toBe(true);
    expect(res.failure!.message).toContain(
      'Lifecycle action timed out after 0.5s: "echo $$ > pid.txt; sleep 30"',
    );
    expect(isAlive(Number(readFileSync(join(ws.work, 'pid.txt'), 'utf8')))).toBe(false);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('Run cancelled by SIGINT')), 200);
    const res = await phase([script('sleep 30'), script('touch never')], { signal: controller.signal });
    expect(res.failure).toMatchObject({ aborted: true, actionIndex: 0 });
    expect(res.failure!.message).toContain('Run cancelled by SIGINT');
    expect(existsSync(join(ws.work, 'never'))).toBe(false);
  });

  it('a missing shell command is an ordinary failure (exit 127)', async () => {
    const res = await phase([script('axis-no-such-command-xyz')]);
    expect(res.failure!.exitCode).toBe(127);
    expect(res.failure!.stderrTail).toContain('axis-no-such-command-xyz');
  });

  it('keeps at most 256 KiB of notes with a truncation marker', async () => {
    const res = await phase([
      script(`head -c ${MAX_NOTES_BYTES + 5000} /dev/zero | tr '\\0' n >> "$AXIS_OUTPUT"`),
    ]);
    expect(res.notesTruncated).toBe(true);
    expect(res.notes.startsWith('n'.repeat(MAX_NOTES_BYTES))).toBe(true);
    expect(res.notes).toContain(`AXIS_OUTPUT truncated: ${MAX_NOTES_BYTES + 5000} bytes written`);
  });

  it('returns empty notes when nothing was written, and removes its notes dir', async () => {
    let file = '';
    const res = await phase([script('echo "$AXIS_OUTPUT" > out-path.txt')]);
    file = readFileSync(join(ws.work, 'out-path.txt'), 'utf8').trim();
    expect(res.notes).toBe('');
    expect(existsSync(file)).toBe(false);
  });
});

describe('runLifecyclePhase', () => {
  it('an empty phase succeeds without creating anything', async () => {
    const res = await phase([]);
    expect(res).toMatchObject({ ok: true, notes: '', actionsRun: 0 });
    expect(res.failure).toBeUndefined();
  });
});

describe('copy', () => {
  beforeEach(() => {
    mkdirSync(join(configDir, 'fixtures/app/src/lib'), { recursive: true });
    writeFileSync(join(configDir, 'fixtures/app/package.json'), '{}');
    writeFileSync(join(configDir, 'fixtures/app/.env.example'), 'X=1');
    writeFileSync(join(configDir, 'fixtures/app/src/index.ts'), 'export {}');
    writeFileSync(join(configDir, 'fixtures/app/src/lib/util.ts'), 'export {}');
    writeFileSync(join(configDir, 'fixtures/app/run.sh'), '#!/bin/sh\n');
    chmodSync(join(configDir, 'fixtures/app/run.sh'), 0o755);
    writeFileSync(join(configDir, 'notes.md'), '# n');
  });

  it('keeps paths relative to the glob static base', async () => {
    const res = await phase([copy('fixtures/app/src/**/*.ts', 'code')]);
    expect(res.ok).toBe(true);
    expect(readFileSync(join(ws.work, 'code/index.ts'), 'utf8')).toBe('export {}');
    expect(existsSync(join(ws.work, 'code/lib/util.ts'))).toBe(true);
    expect(existsSync(join(ws.work, 'code/package.json'))).toBe(false);
  });

  it('copies a literal directory with everything under it, dotfiles and file modes included', async () => {
    const res = await phase([copy('./fixtures/app', '.')]);
    expect(res.ok).toBe(true);
    for (const f of ['package.json', '.env.example', 'src/index.ts', 'src/lib/util.ts'])
      expect(existsSync(join(ws.work, f))).toBe(true);
    expect(statSync(join(ws.work, 'run.sh')).mode & 0o111).not.toBe(0);
  });

  it('copies a literal file by name into the destination', async () => {
    const res = await phase([copy('notes.md', 'docs/in')]);
    expect(res.ok).toBe(true);
    expect(readFileSync(join(ws.work, 'docs/in/notes.md'), 'utf8')).toBe('# n');
  });

  it('fails for a literal path that does not exist', async () => {
    const res = await phase([copy('fixtures/missing.txt', '.')]);
    expect(res.ok).toBe(false);
    expect(res.failure!.action).toBe('copy');
    expect(res.failure!.message).toContain('no such file or directory: "fixtures/missing.txt"');
  });

  it('fails when a glob matches nothing', async () => {
    const res = await phase([copy('fixtures/app/**/*.py', '.')]);
    expect(res.failure!.message).toContain('pattern "fixtures/app/**/*.py" matched no files');
    const missingBase = await phase([copy('nowhere/**/*.ts', '.')]);
    expect(missingBase.failure!.message).toContain('matched no files');
  });

  it('refuses destinations outside the workspace', async () => {
    const up = await phase([copy('notes.md', '../escape')]);
    expect(up.failure!.message).toContain('escapes the workspace');
    expect(existsSync(join(ws.root, 'escape'))).toBe(false);
    const abs = await phase([copy('notes.md', '/tmp/axis-abs-dest')]);
    expect(abs.failure!.message).toContain('must be relative to the workspace');
    expect(resolveDestination('a/../b', ws.work)).toBe(join(ws.work, 'b'));
  });

  it('refuses a destination that a symlink redirects outside the workspace', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'axis-outside-'));
    symlinkSync(outside, join(ws.work, 'link'));
    const res = await phase([copy('notes.md', 'link/sub')]);
    expect(res.failure!.message).toContain('resolves outside the workspace');
    expect(existsSync(join(outside, 'sub/notes.md'))).toBe(false);
    rmSync(outside, { recursive: true, force: true });
  });

  it('planCopy lists the pairs without copying', async () => {
    const plan = await planCopy(
      { action: 'copy', match: 'fixtures/*/src/*.ts', destination: 'x' },
      configDir,
      ws.work,
    );
    expect(plan.destDir).toBe(join(ws.work, 'x'));
    expect(plan.pairs).toEqual([
      { from: join(configDir, 'fixtures/app/src/index.ts'), to: 'app/src/index.ts' },
    ]);
  });

  it('runs copies and scripts in order', async () => {
    const res = await phase([
      copy('fixtures/app/package.json', '.'),
      script('test -f package.json && echo found >> "$AXIS_OUTPUT"'),
    ]);
    expect(res.notes).toBe('found');
  });
});

describe('copy with a root (a remote scenario)', () => {
  it('reads from the root, not the config dir, and refuses a file whose real path leaves the root', async () => {
    const remote = join(configDir, 'remote');
    mkdirSync(remote);
    writeFileSync(join(configDir, 'data.txt'), 'parent');
    writeFileSync(join(remote, 'data.txt'), 'remote');
    const ok = await phase([{ action: 'copy', match: 'data.txt', destination: '.', root: remote }]);
    expect(ok.ok).toBe(true);
    expect(readFileSync(join(ws.work, 'data.txt'), 'utf8')).toBe('remote');

    symlinkSync(join(configDir, 'data.txt'), join(remote, 'link.txt'));
    const res = await phase([{ action: 'copy', match: 'link.txt', destination: 'x', root: remote }]);
    expect(res.ok).toBe(false);
    expect(res.failure!.message).toContain("is outside the remote scenario's checkout");
    expect(existsSync(join(ws.work, 'x/link.txt'))).toBe(false);
  });
});
