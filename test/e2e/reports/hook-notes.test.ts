/**
 * The config's `beforeAll`/`afterAll` notes ($AXIS_OUTPUT) in `axis reports <id>`, as a scenario's
 * setup notes are in its view: shown under their phase's name, without the control characters a
 * script printed (they could retitle the window or clear the screen); long notes cut as the final
 * answer is, so a chatty script cannot flood the terminal view.
 */
import { describe, expect, it } from 'vitest';
import { axis, project, ROOT } from '../hostile/helpers.js';

const T = 120_000;
const AGENT = `${ROOT}/test/fixtures/command-agent/ndjson-agent.sh`;
const notes = (text: string) => [
  { action: 'run_script', command: `printf '%b' '${text}' >> "$AXIS_OUTPUT"` },
];

describe('axis reports <id> with beforeAll and afterAll notes', () => {
  it(
    'shows each hook notes under its name, control characters left out',
    async () => {
      const dir = project({
        'scenarios/s.json': { name: 'S', prompt: 'Write out.txt', judge: [{ check: 'written' }] },
        'axis.config.json': {
          scenarios: './scenarios',
          agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
          beforeAll: notes('## Seeded\\n- db ready \\033]0;pwned\\007\\033[2Jnow\\n'),
          afterAll: notes('- service stopped\\n'),
        },
      });
      const run = await axis(['run', '--no-score'], dir, { budgetMs: T });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const out = await axis(['reports', 'latest'], dir);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain('\nbeforeAll notes\n  ## Seeded\n  - db ready ]0;pwned[2Jnow\n');
      expect(out.stdout).toContain('\nafterAll notes\n  - service stopped\n');
      // eslint-disable-next-line no-control-regex
      expect(out.stdout).not.toMatch(/[\u0007\u001b]/);
    },
    T,
  );

  it(
    'shows the first 2,000 characters of long notes, then how many more the stored file holds',
    async () => {
      const big = [
        { action: 'run_script', command: `head -c 300000 /dev/zero | tr '\\0' x >> "$AXIS_OUTPUT"` },
      ];
      const dir = project({
        'scenarios/s.json': { name: 'S', prompt: 'Write out.txt', judge: [{ check: 'written' }], setup: big },
        'axis.config.json': {
          scenarios: './scenarios',
          agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
          settings: { runs: 3 },
          beforeAll: big,
        },
      });
      const run = await axis(['run', '--no-score'], dir, { budgetMs: T });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      // 262,144 kept of 300,000 written, plus AXIS's truncation marker.
      const more = /\n {2}… \((26\d{4}) more characters in (report\.json|the detail file)\)\n/g;
      const report = await axis(['reports', 'latest'], dir);
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout).toContain(`\nbeforeAll notes\n  ${'x'.repeat(2000)}\n`);
      expect([...report.stdout.matchAll(more)].map((m) => m[2])).toEqual(['report.json']);
      expect(report.stdout.length).toBeLessThan(10_000);
      const view = await axis(['reports', 'latest', 's'], dir);
      expect(view.code, view.stderr).toBe(0);
      expect(view.stdout).toContain(`\nSetup notes\n  ${'x'.repeat(2000)}\n`);
      expect([...view.stdout.matchAll(more)].map((m) => m[2])).toEqual(Array(3).fill('the detail file'));
      expect(view.stdout.length).toBeLessThan(30_000);
    },
    T,
  );
});
