/**
 * Cache writes are tokens like the others, counted once (docs/transcript.md#tokens): an AXIS NDJSON usage
 * line's `cache_write` joins AXIS's input, report.json keeps how many (`cacheWriteInput`), and the job line,
 * the summary and `axis reports` show the same total.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { axis, project } from '../hostile/helpers.js';

it('keeps cache writes in report.json and counts them in every total', async () => {
  const usage = { type: 'usage', input: 10, output: 10, cache_read: 50, cache_write: 50 };
  const dir = project({
    'agent.sh': `#!/bin/sh\ncat >/dev/null\necho '${JSON.stringify(usage)}'\necho '{"type":"result","text":"done"}'\n`,
    'scenarios/s.json': { name: 's', prompt: 'p', checks: [{ result_matches: 'done' }] },
  });
  chmodSync(join(dir, 'agent.sh'), 0o755);
  writeFileSync(
    join(dir, 'axis.config.json'),
    JSON.stringify({
      scenarios: './scenarios',
      agents: [{ agent: 'command', name: 'c', command: join(dir, 'agent.sh'), output: 'ndjson' }],
    }),
  );
  const r = await axis(['run', '--no-score'], dir);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stderr + r.stdout).toMatch(/· 120 tokens/);
  const reports = join(dir, '.axis/reports');
  const id = readdirSync(reports)[0]!;
  const report = JSON.parse(readFileSync(join(reports, id, 'report.json'), 'utf8'));
  const expected = { input: 60, output: 10, cacheReadInput: 50, cacheWriteInput: 50 };
  expect(report.results[0].tokenUsage).toEqual(expected);
  expect(report.results[0].runs[0].tokenUsage).toEqual(expected);
  const shown = await axis(['reports', id], dir);
  expect(shown.stdout).toMatch(/^s\s+c\s.*\s120\s/m);
}, 60_000);
