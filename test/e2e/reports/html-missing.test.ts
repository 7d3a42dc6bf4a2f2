/**
 * A report without report.html (AXIS killed before writing it, or it was deleted): `axis reports <id>`
 * pointed at the missing file as if it were there. It now says the page is not written and how to write it.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { axis, project } from '../hostile/helpers.js';

it('names report.html only when it is there', async () => {
  const dir = project({
    'scenarios/s.json': { name: 's', prompt: 'p', checks: [{ result_matches: '.*' }] },
  });
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({ scenarios: './scenarios', agents: [{ agent: 'command', name: 'c', command: 'true' }] }),
  );
  const r = await axis(['run', '--no-score', '--json'], dir);
  expect(r.code, r.stderr).toBe(0);
  const id = (JSON.parse(r.stdout) as { reportId: string }).reportId;
  const before = await axis(['reports', id], dir);
  // 96 columns on one line: the command goes on the next, whole.
  expect(before.stdout).toContain(
    `\nHTML report: .axis/reports/${id}/report.html\n  (axis reports ${id} --html)\n`,
  );

  rmSync(join(dir, '.axis/reports', id, 'report.html'));
  const after = await axis(['reports', id], dir);
  expect(after.code).toBe(0);
  expect(after.stdout).toMatch(
    new RegExp(`\\nHTML report: not written yet(?: |\\n {2})\\(axis reports ${id} --html writes it\\)\\n`),
  );
  expect(after.stdout).not.toContain('report.html (');
}, 60_000);
