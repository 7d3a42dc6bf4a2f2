/**
 * Payloads through the whole pipeline: a real `axis run` whose agent prints `<script>`, `</script>` inside
 * tool JSON, event handlers, `javascript:` links and a secret in its text, tool calls, tool results, an
 * artifact's name and setup notes. report.html is then opened in a real Chromium (file://): nothing ran,
 * the payloads show as text, and the secret is nowhere — nor in the terminal or report.json.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, project } from './helpers.js';

checkLeaks();

const SECRET = 'sk-hostile-xss-0123456789abcdef';
const P = {
  text: '<script>window.__pwned = 1; alert(1)</script>',
  call: '</script><script>window.__pwned = 2; alert(2)</script>',
  result: '<img src=x onerror="window.__pwned = 3; alert(3)">',
  link: '[docs](javascript:window.__pwned=4)',
  file: '<img src=x onerror=alert(5)>.txt',
};
const AGENT = `import { writeFileSync } from 'node:fs';
const P = ${JSON.stringify(P)};
const s = ${JSON.stringify(SECRET)};
const line = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
writeFileSync(P.file, 'payload file ' + s + ' ' + P.text);
line({ type: 'text', text: P.text + ' key ' + s });
line({ type: 'tool_call', id: 'c1', name: 'shell', input: { command: P.call, key: s } });
line({ type: 'tool_result', id: 'c1', output: P.result + ' ' + s, exit_code: 0 });
line({ type: 'result', text: 'Done. ' + P.link + ' ' + s });
`;
const NOTES = `## Notes <script>window.__pwned = 6</script>\\n\\n[click](javascript:alert(6)) ${SECRET}\\n`;

describe('payloads from agent output, tool results, file names and notes', () => {
  test('are escaped in report.html (real Chromium), and the secret is redacted everywhere', async () => {
    const dir = project({
      'agent.mjs': AGENT,
      'scenarios/xss.json': {
        name: 'Payloads',
        prompt: 'Print payloads',
        checks: [{ result_matches: 'Done' }],
        setup: [{ action: 'run_script', command: `printf '${NOTES}' > "$AXIS_OUTPUT"` }],
      },
    });
    writeFileSync(
      join(dir, 'axis.config.json'),
      JSON.stringify({
        scenarios: './scenarios',
        agents: [
          {
            agent: 'command',
            name: 'xss',
            command: process.execPath,
            args: [join(dir, 'agent.mjs')],
            output: 'ndjson',
          },
        ],
        artifacts: ['*.txt'],
      }),
    );
    const out = await axis(['run', '--no-score'], dir, {
      budgetMs: 90_000,
      env: { HOSTILE_API_KEY: SECRET },
    });
    expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(0);
    expect(`${out.stdout}${out.stderr}`).not.toContain(SECRET);

    const reports = join(dir, '.axis/reports');
    const report = join(reports, readdirSync(reports)[0]!);
    const manifest = readFileSync(join(report, 'report.json'), 'utf8');
    const detail = readFileSync(join(report, 'scenarios/xss/xss.json'), 'utf8');
    for (const text of [manifest, detail]) expect(text).not.toContain(SECRET);
    expect(
      JSON.parse(detail)
        .transcript.events.map((e: { text?: string }) => e.text ?? '')
        .join(' '),
    ).toContain(`${P.text} key [REDACTED]`);
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    expect(html).not.toContain(SECRET);

    const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const dialogs: string[] = [];
      const requests: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      context.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(join(report, 'report.html')).href);
      await page.locator('tr.pair-row').first().locator('button.disclose').click();
      const panel = page.locator('#pair-0');
      for (const section of await panel.locator('details > summary').all()) await section.click();
      await panel.locator('.events .ev').first().waitFor();
      // A section's body is built on its 'toggle' event, which the browser fires in a later task than
      // the click: every open section is waited for, not only the transcript.
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('#pair-0 details.section[open] > .section-body')).every(
          (b) => b.childElementCount > 0,
        ),
      );
      await panel.locator('[data-section="artifacts"] .section-body').getByText(P.file).first().waitFor();

      const shown = await panel.innerText();
      expect(shown).toContain(P.text);
      expect(shown).toContain('window.__pwned = 2');
      expect(shown).toContain(P.result);
      expect(shown).toContain('<img src=x onerror=alert(5)>.txt');
      expect(shown).not.toContain(SECRET);
      expect(shown).toContain('[REDACTED]');
      expect(shown).toContain('click'); // the setup notes were rendered (their link without its href)
      const state = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        scripts: document.scripts.length,
        handlers: document.querySelectorAll('[onerror], [onclick], [onload]').length,
        jsLinks: Array.from(document.querySelectorAll('a')).filter((a) =>
          (a.getAttribute('href') ?? '').trim().toLowerCase().startsWith('javascript:'),
        ).length,
      }));
      expect(state).toEqual({ pwned: undefined, scripts: 2, handlers: 0, jsLinks: 0 });
      expect(dialogs).toEqual([]);
      expect(
        requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:') && !u.startsWith('blob:')),
      ).toEqual([]);
    } finally {
      await context.close();
      rmSync(join(dir, 'profile'), { recursive: true, force: true });
    }
  }, 150_000);
});
