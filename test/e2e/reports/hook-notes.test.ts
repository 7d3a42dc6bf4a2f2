/**
 * The config's `beforeAll`/`afterAll` notes ($AXIS_OUTPUT) in `axis reports <id>`, as a scenario's
 * setup notes are in its view: shown under their phase's name, without the control characters a
 * script printed (they could retitle the window or clear the screen).
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
});
