import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { selfOwner } from '../../../src/exec/contain.js';
import {
  acquireWorkspace,
  drainWorkspacePool,
  isRecycled,
  pooledWorkspaces,
  releaseWorkspace,
  SPARE_MAX_BYTES,
  useSpare,
} from '../../../src/exec/workspace-pool.js';
import {
  FSTAB_FILE,
  liveTempDirs,
  OWNER_FILE,
  SPARE_FILE,
  type Workspace,
} from '../../../src/exec/workspace.js';
import { writeFiles } from '../../../src/adapters/base.js';
import { removeTempDirs, tempDir } from '../run/helpers.js';

const quiet = () => {};
const PROJECT = '/projects/one';

/** Every workspace a test acquired: one it still holds at its end is removed too, not left in $TMPDIR. */
const acquired: Workspace[] = [];
async function acquire(project: string): Promise<Workspace> {
  const ws = await acquireWorkspace(project);
  acquired.push(ws);
  return ws;
}

afterEach(async () => {
  await drainWorkspacePool(quiet);
  for (const ws of acquired.splice(0)) rmSync(ws.root, { recursive: true, force: true });
  removeTempDirs();
});

/** Every entry under `dir` (directories with a trailing slash), relative, sorted. */
function tree(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    const rel = relative(base, path);
    if (e.isDirectory()) out.push(`${rel}/`, ...tree(path, base));
    else out.push(rel);
  }
  return out.sort();
}

/** What one job might leave behind: files in every directory it can write to, and a nested tree. */
function dirty(ws: Workspace): void {
  writeFileSync(join(ws.work, 'answer.txt'), 'job 1');
  mkdirSync(join(ws.work, 'node_modules/a/b'), { recursive: true });
  writeFileSync(join(ws.work, 'node_modules/a/b/index.js'), '');
  mkdirSync(join(ws.home, '.claude'));
  writeFileSync(join(ws.home, '.claude/credentials.json'), 'secret of job 1');
  writeFileSync(join(ws.home, '.config/settings'), 'x');
  mkdirSync(join(ws.home, '.local/share/opencode'));
  writeFileSync(join(ws.tmp, 'axis-prompt.txt'), 'prompt of job 1');
  writeFileSync(join(ws.root, 'next-to-work'), 'x');
}

/** Each spoil, done to a workspace before it is released, means it is removed, not pooled. */
async function expectEachRemoved(
  spoils: ((ws: Workspace) => void)[],
  prepare: (ws: Workspace) => void = () => {},
): Promise<void> {
  for (const spoil of spoils) {
    const ws = await acquire(PROJECT);
    prepare(ws);
    spoil(ws);
    await releaseWorkspace(ws, true, quiet);
    expect(existsSync(ws.root)).toBe(false);
  }
  expect(pooledWorkspaces()).toHaveLength(0);
}

describe('the workspace pool', () => {
  it('a released workspace comes back emptied to a fresh layout at its path, its marker ours', async () => {
    const fresh = await acquire(PROJECT);
    expect(isRecycled(fresh)).toBe(false);
    const freshTree = tree(fresh.root);
    dirty(fresh);
    await releaseWorkspace(fresh, true, quiet);
    expect(pooledWorkspaces()).toHaveLength(1);

    const again = await acquire(PROJECT);
    expect(isRecycled(again)).toBe(true);
    // One file the job left is kept, emptied, as the spare for the next job's first file.
    expect(again).toEqual({ ...fresh, spare: join(fresh.root, SPARE_FILE) });
    expect(tree(again.root)).toEqual([...freshTree, SPARE_FILE].sort());
    expect(readFileSync(join(again.root, OWNER_FILE), 'utf8')).toBe(`${JSON.stringify(selfOwner())}\n`);
    // Still registered: Ctrl-C or an exit removes it like any temp dir.
    expect(liveTempDirs()).toContain(again.root);
    await releaseWorkspace(again, false, quiet);
    expect(existsSync(again.root)).toBe(false);
    expect(pooledWorkspaces()).toHaveLength(0);
  });

  it('the spare: an emptied file the job left (never a link), used once for the next job’s first file', async () => {
    const ws = await acquire(PROJECT);
    expect(useSpare(ws, join(ws.tmp, 'x'))).toBe(false);
    // A file with a link outside the workspace and a symbolic link are never made the spare; the plain file is.
    const outside = join(tempDir('axis-pool-outside-'), 'f');
    writeFileSync(outside, 'linked');
    linkSync(outside, join(ws.work, 'a'));
    symlinkSync(outside, join(ws.work, 'c'));
    writeFileSync(join(ws.tmp, 'axis-prompt.txt'), 'prompt of job 1', { mode: 0o644 });
    const inode = lstatSync(join(ws.tmp, 'axis-prompt.txt')).ino;
    await releaseWorkspace(ws, true, quiet);
    const next = await acquire(PROJECT);
    const spare = lstatSync(join(next.root, SPARE_FILE));
    expect({ ino: spare.ino, mode: spare.mode & 0o777, nlink: spare.nlink }).toEqual({
      ino: inode,
      mode: 0o600,
      nlink: 1,
    });
    // Zeroed in place (its blocks kept): nothing of what the job wrote is left in it.
    expect(readFileSync(join(next.root, SPARE_FILE))).toEqual(Buffer.alloc('prompt of job 1'.length));
    expect(tree(next.work)).toEqual([]);
    expect(readFileSync(outside, 'utf8')).toBe('linked');
    // The adapter's first file takes it over: same inode, the new content, mode 0600; only once.
    const useSpareFile = (target: string) => useSpare(next, target);
    // A file whose directory is missing cannot take the spare: it stays for the next one.
    const nested = join(next.home, 'new-dir/settings.json');
    await writeFiles([{ path: nested, content: '{"a":1}' }], { useSpareFile });
    expect(readFileSync(nested, 'utf8')).toBe('{"a":1}');
    expect(next.spare).toBe(join(next.root, SPARE_FILE));
    const prompt = join(next.tmp, 'axis-prompt.txt');
    await writeFiles([{ path: prompt, content: 'job 2' }], { useSpareFile });
    await writeFiles([{ path: join(next.home, 'x.json'), content: '{}' }], { useSpareFile });
    expect(readFileSync(prompt, 'utf8')).toBe('job 2');
    expect(lstatSync(prompt)).toMatchObject({ ino: inode, mode: expect.any(Number) });
    expect(lstatSync(prompt).mode & 0o777).toBe(0o600);
    expect(lstatSync(join(next.home, 'x.json')).ino).not.toBe(inode);
    expect(lstatSync(nested).ino).not.toBe(inode);
    expect(existsSync(join(next.root, SPARE_FILE))).toBe(false);
    expect(next.spare).toBeUndefined();
  });

  it('an unused spare is kept while it stays zeros; one the job wrote to, or a big file, is not', async () => {
    const ws = await acquire(PROJECT);
    writeFileSync(join(ws.work, 'left'), 'x');
    await releaseWorkspace(ws, true, quiet);
    const unused = await acquire(PROJECT);
    const spare = unused.spare!;
    await releaseWorkspace(unused, true, quiet);
    const again = await acquire(PROJECT);
    expect(again.spare).toBe(spare);
    writeFileSync(spare, 'written by the job');
    await releaseWorkspace(again, true, quiet);
    expect(existsSync(again.root)).toBe(false);
    expect(pooledWorkspaces()).toHaveLength(0);
    // An unused spare the job removed: the next job's left file becomes the spare.
    const first = await acquire(PROJECT);
    writeFileSync(join(first.work, 'left'), 'x');
    await releaseWorkspace(first, true, quiet);
    const gone = await acquire(PROJECT);
    rmSync(gone.spare!);
    writeFileSync(join(gone.home, 'left'), 'x');
    await releaseWorkspace(gone, true, quiet);
    const renewed = await acquire(PROJECT);
    expect(renewed.spare).toBe(join(renewed.root, SPARE_FILE));
    expect(readFileSync(renewed.spare!)).toEqual(Buffer.alloc(1));
    expect(tree(renewed.home)).not.toContain('left');
    await releaseWorkspace(renewed, false, quiet);
    // A file over SPARE_MAX_BYTES is removed, not zeroed.
    const big = await acquire(PROJECT);
    writeFileSync(join(big.work, 'big'), Buffer.alloc(SPARE_MAX_BYTES + 1, 1));
    await releaseWorkspace(big, true, quiet);
    const after = await acquire(PROJECT);
    expect(after.spare).toBeUndefined();
    expect(tree(after.work)).toEqual([]);
  });

  it('a changed owner marker or fstab, or an extra link to one, means the workspace is not reused', async () => {
    const spoils: ((ws: Workspace) => void)[] = [
      (ws) => writeFileSync(join(ws.root, OWNER_FILE), '{"pid":1,"start":1,"boot":"x","pidns":"pid:[1]"}\n'),
      (ws) => writeFileSync(join(ws.root, FSTAB_FILE), '/ /tmp none rbind 0 0\n'),
      (ws) => linkSync(join(ws.root, FSTAB_FILE), join(ws.work, 'hard-link')),
    ];
    await expectEachRemoved(spoils, (ws) => {
      writeFileSync(join(ws.root, FSTAB_FILE), 'what AXIS wrote\n');
      ws.fstabText = 'what AXIS wrote\n';
    });
  });

  it('bind points and the fstab are kept for the next job', async () => {
    const ws = await acquire(PROJECT);
    const own = join(ws.tmp, relative('/tmp', ws.root));
    const project = join(ws.tmp, 'ci-clone/axis');
    mkdirSync(own, { recursive: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(join(ws.root, FSTAB_FILE), 'the fstab\n');
    writeFileSync(join(ws.tmp, 'left-by-the-job'), '');
    ws.bindPoints = [own, project];
    ws.fstabText = 'the fstab\n';
    await releaseWorkspace(ws, true, quiet);
    const again = await acquire(PROJECT);
    expect(again.bindPoints).toEqual([own, project]);
    expect(again.fstabText).toBe('the fstab\n');
    expect(tree(again.tmp).sort()).toEqual(
      [relative(again.tmp, own), 'ci-clone', 'ci-clone/axis'].map((p) => `${p}/`).sort(),
    );
    expect(readFileSync(join(again.root, FSTAB_FILE), 'utf8')).toBe('the fstab\n');
  });

  it('a fstab with no bind points this job is removed like any other file', async () => {
    const ws = await acquire(PROJECT);
    writeFileSync(join(ws.root, FSTAB_FILE), 'stale\n');
    await releaseWorkspace(ws, true, quiet);
    const again = await acquire(PROJECT);
    expect(existsSync(join(again.root, FSTAB_FILE))).toBe(false);
  });

  it('links are removed, never followed; one in place of a skeleton entry means the workspace is not reused', async () => {
    const outside = tempDir('axis-pool-outside-');
    writeFileSync(join(outside, 'keep.txt'), 'the user’s file');
    const cases: ((ws: Workspace) => void)[] = [
      (ws) => {
        rmSync(join(ws.home, '.config'), { recursive: true });
        symlinkSync(outside, join(ws.home, '.config'));
      },
      (ws) => {
        rmSync(join(ws.root, OWNER_FILE));
        symlinkSync(join(outside, 'keep.txt'), join(ws.root, OWNER_FILE));
      },
      (ws) => symlinkSync(outside, join(ws.work, 'link-to-outside')),
    ];
    for (const [i, spoil] of cases.entries()) {
      const ws = await acquire(PROJECT);
      spoil(ws);
      await releaseWorkspace(ws, true, quiet);
      // Only the last one (a link inside work/, not in place of the skeleton) is emptied and reused.
      const reused = i === cases.length - 1;
      expect(existsSync(ws.root)).toBe(reused);
      if (reused) expect(tree(ws.work)).toEqual([]);
      expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('the user’s file');
    }
    expect(pooledWorkspaces()).toHaveLength(1);
  });

  it('a skeleton dir whose mode the job changed, or that it removed, is not reused', async () => {
    const spoils: ((ws: Workspace) => void)[] = [
      (ws) => chmodSync(ws.home, 0o777),
      (ws) => rmSync(join(ws.home, '.cache'), { recursive: true }),
      (ws) => {
        rmSync(ws.tmp, { recursive: true });
        writeFileSync(ws.tmp, 'a file where tmp/ was');
      },
    ];
    await expectEachRemoved(spoils);
  });

  it('a workspace goes only to a job of the same project', async () => {
    const ws = await acquire(PROJECT);
    await releaseWorkspace(ws, true, quiet);
    const other = await acquire('/projects/two');
    expect(isRecycled(other)).toBe(false);
    expect(other.root).not.toBe(ws.root);
    const same = await acquire(PROJECT);
    expect(isRecycled(same)).toBe(true);
    expect(same.root).toBe(ws.root);
    await releaseWorkspace(other, false, quiet);
  });

  it('not reusable: removed; draining removes every pooled workspace', async () => {
    const a = await acquire(PROJECT);
    const b = await acquire(PROJECT);
    const c = await acquire(PROJECT);
    await releaseWorkspace(a, false, quiet);
    expect(existsSync(a.root)).toBe(false);
    await releaseWorkspace(b, true, quiet);
    await releaseWorkspace(c, true, quiet);
    const pooled = pooledWorkspaces().map((w) => w.root);
    expect(pooled).toHaveLength(2);
    await drainWorkspacePool(quiet);
    for (const root of pooled) expect(existsSync(root)).toBe(false);
    expect(pooledWorkspaces()).toHaveLength(0);
    expect(lstatSync(b.root, { throwIfNoEntry: false })).toBeUndefined();
  });
});
