/**
 * The config's `beforeAll`/`afterAll` notes ($AXIS_OUTPUT) in report.html (real Chromium), at run level:
 * rendered from markdown and sanitized like a scenario's setup notes, so a script's `<script>` or
 * `javascript:` link shows as text or loses its href, and nothing runs.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumPages } from './chromium.js';
import { axis, project, ROOT } from '../hostile/helpers.js';

const T = 120_000;
const AGENT = join(ROOT, 'test/fixtures/command-agent/ndjson-agent.sh');
const notes = (text: string) => [
  { action: 'run_script', command: `printf '%b' '${text}' >> "$AXIS_OUTPUT"` },
];

describe('report.html with beforeAll and afterAll notes', () => {
  const pages = chromiumPages();

  it(
    'shows each hook notes at run level, rendered from markdown and sanitized',
    async () => {
      const dir = project({
        'scenarios/s.json': { name: 'S', prompt: 'Write out.txt', judge: [{ check: 'written' }] },
        'axis.config.json': {
          scenarios: './scenarios',
          agents: [{ agent: 'command', name: 'toy', command: AGENT, output: 'ndjson' }],
          beforeAll: notes(
            '## Seeded\\n\\n- db ready <script>window.__pwned = 1</script>\\n\\n[docs](javascript:window.__pwned=2)\\n',
          ),
          afterAll: notes('> service *stopped*\\n'),
        },
      });
      const run = await axis(['run', '--no-score'], dir, { budgetMs: T });
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const reports = join(dir, '.axis/reports');
      const url = pathToFileURL(join(reports, readdirSync(reports)[0]!, 'report.html')).href;

      const page = await pages.open(url, 1360, 'details[data-section="beforeall-notes"]');
      await page.locator('details[data-section="beforeall-notes"] > summary').click();
      const before = page.locator('details[data-section="beforeall-notes"] .md');
      await before.waitFor();
      await expect(before.locator('h2').innerText()).resolves.toBe('Seeded');
      expect(await before.innerText()).toContain('db ready');
      await expect(before.locator('script, [onclick], [id]').count()).resolves.toBe(0);
      for (const href of await before.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))))
        expect(href).toBeNull();
      expect(await before.innerText()).toContain('docs');

      await page.locator('details[data-section="afterall-notes"] > summary').click();
      const after = page.locator('details[data-section="afterall-notes"] .md');
      await after.waitFor();
      await expect(after.locator('blockquote em').innerText()).resolves.toBe('stopped');
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    },
    T,
  );
});
