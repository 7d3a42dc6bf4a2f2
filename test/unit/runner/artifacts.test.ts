import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  captureArtifacts,
  DEFAULT_MAX_ARTIFACT_FILE_BYTES,
  DEFAULT_MAX_ARTIFACT_TOTAL_BYTES,
  mergeArtifactPatterns,
  mimeTypeFor,
} from '../../../src/runner/artifacts.js';
import { createWorkspace, removeWorkspace, type Workspace } from '../../../src/exec/workspace.js';

let ws: Workspace;
let dest: string;
let outside: string;

function put(rel: string, content: string | Buffer): void {
  const path = join(ws.work, rel);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

beforeEach(async () => {
  ws = await createWorkspace();
  dest = join(ws.root, 'captured');
  outside = mkdtempSync(join(tmpdir(), 'axis-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'host secret');
  mkdirSync(join(outside, 'dir'));
  writeFileSync(join(outside, 'dir', 'inner.txt'), 'host secret too');
});
afterEach(async () => {
  await removeWorkspace(ws);
  rmSync(outside, { recursive: true, force: true });
});

describe('stored names', () => {
  it('stores and lists each file under its stored name; two files mapping to one name keep both', async () => {
    put('key-AAAA.txt', 'a');
    put('key-BBBB.txt', 'b');
    put('dir-AAAA/x.txt', 'x');
    const entries = await captureArtifacts({
      workDir: ws.work,
      patterns: ['**/*.txt'],
      destDir: dest,
      storedName: (rel) => rel.replace(/AAAA|BBBB/g, '[REDACTED]'),
    });
    expect(entries.map((e) => e.path)).toEqual([
      'dir-[REDACTED]/x.txt',
      'key-[REDACTED]-2.txt',
      'key-[REDACTED].txt',
    ]);
    expect(readFileSync(join(dest, 'key-[REDACTED].txt'), 'utf8')).toBe('a');
    expect(readFileSync(join(dest, 'key-[REDACTED]-2.txt'), 'utf8')).toBe('b');
    expect(readFileSync(join(dest, 'dir-[REDACTED]/x.txt'), 'utf8')).toBe('x');
    expect(existsSync(join(dest, 'key-AAAA.txt'))).toBe(false);
  });
});

describe('captureArtifacts', () => {
  it('copies matching files keeping relative paths, sorted, with size and MIME type', async () => {
    put('out/report.md', '# r');
    put('out/sub/data.json', '{"a":1}');
    put('out/skip.bin', 'x');
    put('src/index.ts', 'no');
    const entries = await captureArtifacts({
      workDir: ws.work,
      patterns: ['out/**/*.md', './out/**/*.json'],
      destDir: dest,
    });
    expect(entries).toEqual([
      { path: 'out/report.md', size: 3, mimeType: 'text/markdown' },
      { path: 'out/sub/data.json', size: 7, mimeType: 'application/json' },
    ]);
    expect(readFileSync(join(dest, 'out/sub/data.json'), 'utf8')).toBe('{"a":1}');
    expect(existsSync(join(dest, 'out/skip.bin'))).toBe(false);
  });

  it('a pattern naming a directory captures everything below it, dotfiles included', async () => {
    put('dist/a.js', 'a');
    put('dist/.hidden/b.txt', 'b');
    const entries = await captureArtifacts({ workDir: ws.work, patterns: ['dist'], destDir: dest });
    expect(entries.map((e) => e.path)).toEqual(['dist/.hidden/b.txt', 'dist/a.js']);
  });

  it('never follows a symlink pointing outside the workspace', async () => {
    put('real.txt', 'ok');
    symlinkSync(join(outside, 'secret.txt'), join(ws.work, 'leak.txt'));
    symlinkSync(join(outside, 'dir'), join(ws.work, 'leakdir'));
    const entries = await captureArtifacts({
      workDir: ws.work,
      patterns: ['**/*.txt', 'leakdir/**'],
      destDir: dest,
    });
    expect(entries).toEqual([
      { path: 'leak.txt', size: 0, mimeType: 'text/plain', skipped: 'symlink points outside the workspace' },
      // `leakdir/**` also matches the link itself; it is reported, its contents never read.
      {
        path: 'leakdir',
        size: 0,
        mimeType: 'application/octet-stream',
        skipped: 'symlink points outside the workspace',
      },
      { path: 'real.txt', size: 2, mimeType: 'text/plain' },
    ]);
    expect(existsSync(join(dest, 'leak.txt'))).toBe(false);
    expect(existsSync(join(dest, 'leakdir'))).toBe(false);
  });

  it('captures a symlink to a file inside the workspace with the target content', async () => {
    put('target.txt', 'inside');
    symlinkSync('target.txt', join(ws.work, 'alias.txt'));
    const entries = await captureArtifacts({ workDir: ws.work, patterns: ['alias.txt'], destDir: dest });
    expect(entries).toEqual([{ path: 'alias.txt', size: 6, mimeType: 'text/plain' }]);
    expect(readFileSync(join(dest, 'alias.txt'), 'utf8')).toBe('inside');
  });

  it('does not walk through a symlinked directory used as a pattern base', async () => {
    symlinkSync(join(outside, 'dir'), join(ws.work, 'linked'));
    const entries = await captureArtifacts({ workDir: ws.work, patterns: ['linked/*.txt'], destDir: dest });
    expect(entries).toEqual([]);
  });

  it('skips files over the per-file cap and stops at the total cap, saying why', async () => {
    put('a.log', Buffer.alloc(400));
    put('b.log', Buffer.alloc(2000));
    put('c.log', Buffer.alloc(500));
    put('d.log', Buffer.alloc(100));
    const entries = await captureArtifacts({
      workDir: ws.work,
      patterns: ['*.log'],
      destDir: dest,
      maxFileBytes: 1000,
      maxTotalBytes: 950,
    });
    expect(entries).toEqual([
      { path: 'a.log', size: 400, mimeType: 'text/plain' },
      {
        path: 'b.log',
        size: 2000,
        mimeType: 'text/plain',
        skipped: 'larger than the per-file limit (1000 B)',
      },
      { path: 'c.log', size: 500, mimeType: 'text/plain' },
      { path: 'd.log', size: 100, mimeType: 'text/plain', skipped: 'total artifact limit reached (950 B)' },
    ]);
    expect(existsSync(join(dest, 'b.log'))).toBe(false);
    expect(existsSync(join(dest, 'd.log'))).toBe(false);
  });

  it('has documented default caps of 5 MiB per file and 25 MiB in total', () => {
    expect(DEFAULT_MAX_ARTIFACT_FILE_BYTES).toBe(5 * 1024 * 1024);
    expect(DEFAULT_MAX_ARTIFACT_TOTAL_BYTES).toBe(25 * 1024 * 1024);
  });

  it('reports patterns that point outside the workspace instead of following them', async () => {
    const entries = await captureArtifacts({
      workDir: ws.work,
      patterns: ['../**/*.txt', `${outside}/*.txt`],
      destDir: dest,
    });
    expect(entries.map((e) => e.skipped)).toEqual([
      'pattern points outside the workspace',
      'pattern points outside the workspace',
    ]);
    expect(existsSync(dest)).toBe(false);
  });

  it('matches each file once even when several patterns match it', async () => {
    put('out/x.txt', 'x');
    const entries = await captureArtifacts({
      workDir: ws.work,
      patterns: ['out/*.txt', '**/*.txt', 'out'],
      destDir: dest,
    });
    expect(entries.map((e) => e.path)).toEqual(['out/x.txt']);
  });

  it('returns nothing when no pattern is given', async () => {
    put('a.txt', 'a');
    expect(await captureArtifacts({ workDir: ws.work, patterns: [], destDir: dest })).toEqual([]);
  });
});

describe('mergeArtifactPatterns', () => {
  it('merges config then scenario patterns, normalized and deduped', () => {
    expect(
      mergeArtifactPatterns(['./out/**', 'a.txt', ''], undefined, ['out/**', 'b.txt', './a.txt']),
    ).toEqual(['out/**', 'a.txt', 'b.txt']);
  });
});

describe('mimeTypeFor', () => {
  it('maps by extension, case-insensitively, with a binary default', () => {
    expect(mimeTypeFor('a/B.PNG')).toBe('image/png');
    expect(mimeTypeFor('x.html')).toBe('text/html');
    expect(mimeTypeFor('Makefile')).toBe('application/octet-stream');
  });
});
