/**
 * `run` checks see the variables setup scripts see (docs/scoring.md#deterministic-checks): a checker kept
 * in the config dir, out of the agent's reach, is found through $AXIS_CONFIG_DIR. They got the agent's
 * environment only, so a checker had to sit in the workspace, where the agent could rewrite it.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../../unit/run/helpers.js';
import { axis, buildDist } from '../run/helpers.js';

beforeAll(buildDist);
afterAll(removeTempDirs);

/**
 * `axis run --no-score` of a project of `files` (an executable `agent.sh`, the `command` agent `toy`, and
 * scenario `s`): each check of the run as [passed, rationale].
 */
async function checksOfRun(files: Record<string, string>): Promise<[boolean, string][]> {
  const dir = tempDir('axis-check-env-');
  const config = {
    scenarios: './scenarios',
    agents: [{ agent: 'command', name: 'toy', command: join(dir, 'agent.sh'), output: 'ndjson' }],
  };
  for (const [rel, text] of Object.entries({ ...files, 'axis.config.json': JSON.stringify(config) })) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  chmodSync(join(dir, 'agent.sh'), 0o755);
  const r = await axis(['run', '--no-score'], dir);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const reports = join(dir, '.axis/reports');
  const run = JSON.parse(
    readFileSync(join(reports, readdirSync(reports)[0]!, 'scenarios/s/toy.json'), 'utf8'),
  ) as { checks: { passed: boolean; rationale: string }[] };
  return run.checks.map((c) => [c.passed, c.rationale]);
}

it("runs checks with the setup scripts' AXIS_* variables", async () => {
  const files: Record<string, string> = {
    // The agent rewrites the workspace's copy of the checker to always pass.
    'agent.sh':
      "#!/bin/sh\ncat >/dev/null\nprintf '#!/bin/sh\\nexit 0\\n' > verify.sh\n" +
      `echo '{"type":"result","text":"Done."}'\n`,
    'checks/verify.sh': '#!/bin/sh\ntest -f "$AXIS_WORKSPACE/out.txt"\n',
    'scenarios/s.json': JSON.stringify({
      name: 's',
      prompt: 'Write out.txt.',
      setup: [{ action: 'copy', match: 'checks/verify.sh', destination: '.' }],
      checks: [
        { name: 'config-dir checker', run: 'sh "$AXIS_CONFIG_DIR/checks/verify.sh"' },
        {
          name: 'vars',
          run:
            'test "$AXIS_WORKSPACE" = "$PWD" && test "$AXIS_PHASE" = check && test "$AXIS_SCENARIO" = s' +
            ' && test "$AXIS_AGENT" = toy && test "$AXIS_ADAPTER" = command && test -z "${AXIS_OUTPUT:-}"',
        },
      ],
    }),
  };
  expect(await checksOfRun(files)).toEqual([
    [false, expect.stringMatching(/^Failed: exit code 1 \(expected 0\)/)],
    [true, expect.stringMatching(/^Passed: exit code 0/)],
  ]);
}, 60_000);

it('runs checks with a HOME of their own: files the agent planted in its HOME do not decide them', async () => {
  const files: Record<string, string> = {
    // The agent does not write out.txt; it makes every Python that starts with its HOME exit 0 at once.
    'agent.sh':
      '#!/bin/sh\ncat >/dev/null\n' +
      `d=$(python3 -c 'import site; print(site.getusersitepackages())') && mkdir -p "$d"\n` +
      `printf 'import os\\nos._exit(0)\\n' > "$d/usercustomize.py"\n` +
      'touch "$HOME/planted"\n' +
      `echo '{"type":"result","text":"Done."}'\n`,
    'checks/verify.py':
      'import os, sys\nsys.exit(0 if os.path.exists(os.path.join(os.environ["AXIS_WORKSPACE"], "out.txt")) else 1)\n',
    'scenarios/s.json': JSON.stringify({
      name: 's',
      prompt: 'Write out.txt.',
      checks: [
        { name: 'python checker', run: 'python3 "$AXIS_CONFIG_DIR/checks/verify.py"' },
        // The agent's HOME stays reachable on purpose, as $AXIS_HOME.
        { name: 'agent home', run: 'test -f "$AXIS_HOME/planted" && test "$HOME" != "$AXIS_HOME"' },
      ],
    }),
  };
  expect(await checksOfRun(files)).toEqual([
    [false, expect.stringMatching(/^Failed: exit code 1 \(expected 0\)/)],
    [true, expect.stringMatching(/^Passed: exit code 0/)],
  ]);
}, 60_000);
