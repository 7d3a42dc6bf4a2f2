/**
 * The commands AXIS prints for the user to run next carry the `-c` it was given as one shell word: a
 * config path with a space (or a quote, a `$`) was printed raw, so the printed command split it and failed.
 * Each printed command is run here through `sh -c` exactly as printed, from the same folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { axis, project } from '../hostile/helpers.js';
import { BIN } from '../run/helpers.js';

/** Runs a printed `axis …` command line in a shell, `axis` being this build. */
function runPrinted(command: string, cwd: string): string {
  const line = command.replace(/^axis /, `'${process.execPath}' '${BIN}' `);
  return execFileSync('sh', ['-c', line], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

it('prints follow-up commands whose -c survives a shell, spaces and quotes included', async () => {
  const parent = project();
  const dir = join(parent, "my team's project");
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  writeFileSync(
    join(dir, 'scenarios/s.json'),
    JSON.stringify({ name: 's', prompt: 'p', checks: [{ result_matches: '.*' }] }),
  );
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'c', command: 'true', output: 'text' }],
    }),
  );
  const cfg = join(dir, 'axis.config.json');
  const r = await axis(['run', '--no-score', '-c', cfg], parent);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const viewIt = /View it: (axis reports .+?) {3}·/.exec(r.stdout)![1]!;
  expect(runPrinted(viewIt, parent)).toMatch(/^AXIS Report: /);

  const shown = await axis(['reports', 'latest', '-c', cfg], parent);
  // On the next line when the whole would pass 80 columns.
  const detail = /View scenario detail:\s+(axis reports .+) <scenarioKey>/.exec(shown.stdout)![1]!;
  expect(runPrinted(`${detail} s`, parent)).toContain('s');
  const list = await axis(['reports', '-c', cfg], parent);
  const view = /View a report: (axis reports) <reportId\|latest>(.*)/.exec(list.stdout)!;
  expect(runPrinted(`${view[1]} latest${view[2]}`, parent)).toMatch(/^AXIS Report: /);
}, 60_000);
