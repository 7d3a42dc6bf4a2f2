import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createWorkspace,
  isInside,
  liveTempDirs,
  registerTempDir,
  removeAllTempDirsSync,
  removeWorkspace,
} from '../../../src/exec/workspace.js';

describe('createWorkspace', () => {
  it('creates work/, home/ with XDG dirs and tmp/ under an axis- temp dir, registered for cleanup', async () => {
    const ws = await createWorkspace();
    try {
      expect(basename(ws.root)).toMatch(/^axis-.{6}$/);
      for (const dir of [
        ws.work,
        ws.tmp,
        join(ws.home, '.config'),
        join(ws.home, '.cache'),
        join(ws.home, '.local/share'),
        join(ws.home, '.local/state'),
      ]) {
        expect(statSync(dir).isDirectory()).toBe(true);
      }
      expect(liveTempDirs()).toContain(ws.root);
    } finally {
      expect(await removeWorkspace(ws)).toBe(true);
    }
    expect(existsSync(ws.root)).toBe(false);
    expect(liveTempDirs()).not.toContain(ws.root);
  });

  it('gives two jobs different directories', async () => {
    const [a, b] = await Promise.all([createWorkspace(), createWorkspace()]);
    expect(a!.root).not.toBe(b!.root);
    await Promise.all([removeWorkspace(a!), removeWorkspace(b!)]);
  });
});

describe('removeWorkspace', () => {
  it('removes read-only files and directories', () => {
    // Root ignores permissions, so the fixture drops to `nobody` when the tests run as root.
    const fixture = fileURLToPath(new URL('../../fixtures/runner/remove-readonly.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [fixture], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { uid: number };
    expect(out).toMatchObject({ removed: true, exists: false, logs: [] });
    expect(out.uid).not.toBe(0);
  });

  it('removes what an agent left (deep trees, links, a FIFO) without following links out', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'axis-outside-'));
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    const ws = await createWorkspace();
    const deep = join(ws.work, 'a', 'b', 'c');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'f.txt'), 'x');
    writeFileSync(join(ws.home, '.config', 'settings.json'), '{}');
    symlinkSync(outside, join(ws.work, 'link-to-dir'));
    symlinkSync(join(outside, 'keep.txt'), join(ws.tmp, 'link-to-file'));
    symlinkSync(join(ws.root, 'missing'), join(ws.tmp, 'dangling'));
    spawnSync('mkfifo', [join(ws.tmp, 'fifo')]);
    try {
      expect(await removeWorkspace(ws)).toBe(true);
      expect(existsSync(ws.root)).toBe(false);
      expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('never follows a link the agent put in place of the job dir, home/ or home/.local/', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'axis-outside-'));
    // Shaped like a workspace home, so a removal that followed the links would find what it expects.
    mkdirSync(join(outside, '.local', 'share'), { recursive: true });
    mkdirSync(join(outside, '.config'));
    writeFileSync(join(outside, 'keep.txt'), 'keep');
    const [a, b, c] = await Promise.all([createWorkspace(), createWorkspace(), createWorkspace()]);
    rmSync(c!.root, { recursive: true });
    symlinkSync(outside, c!.root);
    rmSync(a!.home, { recursive: true });
    symlinkSync(outside, a!.home);
    rmSync(join(b!.home, '.local'), { recursive: true });
    symlinkSync(outside, join(b!.home, '.local'));
    try {
      expect(await removeWorkspace(a!)).toBe(true);
      expect(await removeWorkspace(b!)).toBe(true);
      expect(await removeWorkspace(c!)).toBe(true);
      expect([a!, b!, c!].filter((ws) => existsSync(ws.root) || isLink(ws.root))).toEqual([]);
      expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('keep');
      expect(statSync(join(outside, '.local', 'share')).isDirectory()).toBe(true);
      expect(statSync(join(outside, '.config')).isDirectory()).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('never throws, and succeeds for a directory that is already gone', async () => {
    const logs: string[] = [];
    const missing = join(tmpdir(), 'axis-does-not-exist-' + process.pid);
    await expect(removeWorkspace(missing, (m) => logs.push(m))).resolves.toBe(true);
    expect(logs).toEqual([]);
  });

  it('reports a path it cannot remove through the log instead of throwing', async () => {
    const logs: string[] = [];
    const ok = await removeWorkspace(join(tmpdir(), 'axis-bad\0name'), (m) => logs.push(m));
    expect(ok).toBe(false);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^Could not remove temp dir /);
  });
});

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

describe('removeAllTempDirsSync', () => {
  it('removes every registered dir synchronously', () => {
    const a = mkdtempSync(join(tmpdir(), 'axis-reg-'));
    const b = mkdtempSync(join(tmpdir(), 'axis-reg-'));
    writeFileSync(join(a, 'f'), 'x');
    registerTempDir(a);
    registerTempDir(b);
    expect(removeAllTempDirsSync()).toEqual([]);
    expect(existsSync(a)).toBe(false);
    expect(existsSync(b)).toBe(false);
    expect(liveTempDirs()).not.toContain(a);
  });
});

describe('isInside', () => {
  it('accepts the dir and paths below it only', () => {
    expect(isInside('/w', '/w')).toBe(true);
    expect(isInside('/w/a/b', '/w')).toBe(true);
    expect(isInside('/w/..a', '/w')).toBe(true);
    expect(isInside('/wx', '/w')).toBe(false);
    expect(isInside('/', '/w')).toBe(false);
    expect(isInside('/w/../etc', '/w')).toBe(false);
  });
});
