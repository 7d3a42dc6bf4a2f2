/**
 * Secrets never reach a file name on disk: an agent that writes a secret into an artifact's file or folder
 * name gets it stored redacted, and the on-disk name, the listing in report.json and the HTML report agree
 * (the HTML previews the file rather than calling it missing).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeReportData } from '../../../src/report/html/render.js';
import { checkLeaks } from '../../helpers/leaks.js';
import { axis, project } from './helpers.js';

checkLeaks();

const SECRET = 'sk-hostile-artifact-0123456789';
const AGENT = `import { mkdirSync, writeFileSync } from 'node:fs';
const s = ${JSON.stringify(SECRET)};
writeFileSync('file-' + s + '.txt', 'named after the key\\n');
mkdirSync('dir-' + s, { recursive: true });
writeFileSync('dir-' + s + '/inner.txt', 'key inside: ' + s + '\\n');
writeFileSync('plain.txt', 'nothing secret\\n');
process.stdout.write('wrote the files\\n');
`;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path, ...walk(path)] : [path];
  });
}

interface Artifact {
  path: string;
  size: number;
  skipped?: string;
  omitted?: string;
  content?: unknown;
}

describe('artifacts whose names carry a secret', () => {
  test('are stored under the redacted name, listed under it, and previewed in report.html', async () => {
    const dir = project({
      'agent.mjs': AGENT,
      'axis.config.json': {
        scenarios: './scenarios',
        agents: [{ agent: 'command', name: 'writer', command: process.execPath, args: ['AGENT_PATH'] }],
        artifacts: ['**/*.txt'],
      },
      'scenarios/names.json': {
        name: 'Names',
        prompt: 'Write the files',
        checks: [{ file: 'plain.txt', exists: true }],
      },
    });
    // The agent's cwd is its workspace, so the script is named by its absolute path.
    const configPath = join(dir, 'axis.config.json');
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('AGENT_PATH', join(dir, 'agent.mjs')));

    const out = await axis(['run', '--no-score'], dir, {
      budgetMs: 90_000,
      env: { HOSTILE_API_KEY: SECRET },
    });
    expect(out.code, `${out.stdout}\n${out.stderr}`).toBe(0);
    expect(`${out.stdout}${out.stderr}`).not.toContain(SECRET);

    const reports = join(dir, '.axis/reports');
    const [id] = readdirSync(reports);
    const report = join(reports, id!);
    for (const path of walk(report)) {
      expect(relative(report, path), 'a file name on disk').not.toContain(SECRET);
      if (statSync(path).isFile()) expect(readFileSync(path, 'utf8'), path).not.toContain(SECRET);
    }

    const detail = JSON.parse(readFileSync(join(report, 'scenarios/names/writer.json'), 'utf8')) as {
      files: { artifactsDir: string };
      artifacts: Artifact[];
    };
    const listed = detail.artifacts.map((a) => a.path).sort();
    expect(listed).toEqual(['dir-[REDACTED]/inner.txt', 'file-[REDACTED].txt', 'plain.txt']);
    const onDisk = walk(join(report, detail.files.artifactsDir))
      .filter((p) => statSync(p).isFile())
      .map((p) => relative(join(report, detail.files.artifactsDir), p))
      .sort();
    expect(onDisk).toEqual(listed);

    const html = readFileSync(join(report, 'report.html'), 'utf8');
    expect(html).not.toContain(SECRET);
    const payload = /type="application\/octet-stream"[^>]*>([A-Za-z0-9+/=]+)</.exec(html)![1]!;
    const data = decodeReportData(payload);
    expect(JSON.stringify(data)).not.toContain(SECRET);
    const shown = data.pairs[0]!.runs[0]!.artifacts as Artifact[];
    expect(shown.map((a) => [a.path, a.omitted])).toEqual(listed.map((p) => [p, undefined]));
    const inner = shown.find((a) => a.path === 'dir-[REDACTED]/inner.txt')!;
    expect(Buffer.from(inner.content as string, 'base64').toString()).toBe('key inside: [REDACTED]\n');
  }, 120_000);

  test('a capture that fails part-way leaves no unredacted copy behind', async () => {
    // `d-<secret>` is stored as `d-[REDACTED]`, where a folder of that literal name already went: the
    // copy fails after `a.txt` (holding the key) was copied.
    const agent = `import { mkdirSync, writeFileSync } from 'node:fs';
const s = ${JSON.stringify(SECRET)};
writeFileSync('a.txt', 'key: ' + s + '\\n');
mkdirSync('d-[REDACTED]');
writeFileSync('d-[REDACTED]/f.txt', 'f\\n');
writeFileSync('d-' + s, 'named after the key\\n');
`;
    const dir = project({
      'agent.mjs': agent,
      'axis.config.json': {
        agents: [{ agent: 'command', name: 'w', command: process.execPath, args: ['AGENT_PATH'] }],
        artifacts: ['**/*'],
      },
      'scenarios/part.json': { name: 'Part', prompt: 'Write', checks: [{ file: 'a.txt', exists: true }] },
    });
    const configPath = join(dir, 'axis.config.json');
    writeFileSync(configPath, readFileSync(configPath, 'utf8').replace('AGENT_PATH', join(dir, 'agent.mjs')));
    const out = await axis(['run', '--no-score'], dir, {
      budgetMs: 90_000,
      env: { HOSTILE_API_KEY: SECRET },
    });
    expect(out.hung).toBe(false);
    const reports = join(dir, '.axis/reports');
    for (const path of walk(reports)) {
      expect(relative(reports, path), 'a file name on disk').not.toContain(SECRET);
      if (statSync(path).isFile()) expect(readFileSync(path, 'utf8'), path).not.toContain(SECRET);
    }
    expect(`${out.stdout}${out.stderr}`).not.toContain(SECRET);
  }, 120_000);
});
