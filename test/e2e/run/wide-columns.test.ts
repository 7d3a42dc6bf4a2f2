/**
 * Scenario keys and names may hold any script (src/config/file-names.ts limits bytes only): a CJK character
 * or an emoji takes two terminal columns, a combining accent none. The tables of `axis run`, `axis reports`
 * and `axis validate` padded by string length, so every column after such a key started somewhere else.
 * Each table's columns must start at the same display column on every row.
 */
import { chmodSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { axis, project } from '../hostile/helpers.js';
import { textWidth } from '../../../src/util/width.js';

const AGENT = `#!/bin/sh
cat >/dev/null
echo '{"type":"usage","input":10,"output":10}'
echo '{"type":"result","text":"done"}'
`;
const scenario = (name: string) => ({ name, prompt: 'p', checks: [{ result_matches: 'done' }] });
const KEYS = ['post', '日本語', '🚀launch', 'cafe\u0301'];

/** The display column where `needle` starts on `line`. */
function col(line: string, needle: string): number {
  const at = line.indexOf(needle);
  expect(at, `"${needle}" in "${line}"`).toBeGreaterThanOrEqual(0);
  return textWidth(line.slice(0, at));
}

/** The lines of `text` holding one of KEYS (and `also`), one per key, in KEYS order. */
function rowsOf(text: string, also = ''): string[] {
  const lines = text.split('\n').filter((l) => l.includes(also));
  return KEYS.map((k) => {
    const line = lines.find((l) => new RegExp(`(^|\\s)${k}\\s`).test(l));
    expect(line, `a row for ${k} in:\n${text}`).toBeDefined();
    return line!;
  });
}

/** Every row has `needle` at the same display column. */
function aligned(rows: string[], needle: string): void {
  const cols = rows.map((r) => col(r, needle));
  expect(new Set(cols).size, `${needle} at ${cols.join(',')} in:\n${rows.join('\n')}`).toBe(1);
}

it('aligns the columns of run, reports and validate by display width', async () => {
  const files: Record<string, unknown> = { 'agent.sh': AGENT };
  KEYS.forEach((k, i) => (files[`scenarios/${k}.json`] = scenario(i === 1 ? '記事を書く' : `name-${i}`)));
  const dir = project(files);
  chmodSync(join(dir, 'agent.sh'), 0o755);
  const command = join(dir, 'agent.sh');
  const agents = [{ agent: 'command', name: 'c', command, output: 'ndjson' }];
  writeFileSync(join(dir, 'axis.config.json'), JSON.stringify({ scenarios: './scenarios', agents }));

  const run = await axis(['run', '--no-score'], dir);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const finished = rowsOf(run.stdout, 'completed');
  for (const needle of [' c ', 'completed', 'tokens']) aligned(finished, needle);
  aligned(rowsOf(run.stdout, '▶'), 'started');
  // The end-of-run summary table.
  const summary = rowsOf(run.stdout.slice(run.stdout.indexOf('scenario  agent')), 'completed');
  for (const needle of [' c ', 'completed']) aligned(summary, needle);

  const id = readdirSync(join(dir, '.axis/reports'))[0]!;
  const shown = await axis(['reports', id], dir);
  expect(shown.code, shown.stderr).toBe(0);
  const table = rowsOf(shown.stdout, '✓ completed');
  for (const needle of [' c ', ' 20 ', '✓ completed']) aligned(table, needle);

  const valid = await axis(['validate'], dir);
  expect(valid.code, valid.stderr).toBe(0);
  const scenarios = valid.stdout.slice(valid.stdout.indexOf('Scenarios'), valid.stdout.indexOf('Jobs'));
  aligned(rowsOf(scenarios), '1 criterion');
  const jobs = rowsOf(valid.stdout.slice(valid.stdout.indexOf('Jobs')), 'run 1');
  aligned(jobs, ' c ');
  aligned(jobs, 'run 1');
}, 60_000);
