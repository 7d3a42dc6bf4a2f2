/**
 * The `copy` lifecycle action: files from the config dir (or a remote scenario's checkout) into the
 * job's workspace, never outside it (docs/scenarios.md).
 */
import { copyFile, lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { glob } from 'tinyglobby';
import type { CopyAction } from '../config/types.js';
import { isInside } from '../exec/workspace.js';
import { fileKind } from '../util/input-file.js';

/** Files a copy action would copy: absolute source → path relative to the destination dir. */
export interface CopyPlan {
  pairs: { from: string; to: string }[];
  destDir: string;
}

/**
 * Resolves a copy action without touching the destination. The static base of `match` (its leading
 * segments without glob characters) anchors the copied paths: `fixtures/app/**` copies
 * `fixtures/app/src/x.ts` to `<destination>/src/x.ts`. A literal file is copied by name; a literal
 * directory is copied with everything under it. Throws an Error with a readable message.
 */
export async function planCopy(action: CopyAction, configDir: string, workspace: string): Promise<CopyPlan> {
  const destDir = resolveDestination(action.destination, workspace);
  const pattern = action.match.replace(/\\/g, '/').replace(/^\.\/+/, '');
  if (!pattern) throw new Error('copy: "match" is empty');
  const scan = picomatch.scan(pattern);
  const baseAbs = resolve(configDir, scan.base || '.');

  if (!scan.isGlob) {
    const st = await stat(baseAbs).catch(() => undefined);
    if (!st)
      throw new Error(
        `copy: no such file or directory: ${JSON.stringify(action.match)} (looked at ${baseAbs})`,
      );
    if (st.isFile()) return { destDir, pairs: [{ from: baseAbs, to: basename(baseAbs) }] };
    return { destDir, pairs: await globPairs(baseAbs, '**/*', action.match) };
  }
  const st = await stat(baseAbs).catch(() => undefined);
  if (!st?.isDirectory()) {
    throw new Error(
      `copy: pattern ${JSON.stringify(action.match)} matched no files (${baseAbs} is not a directory)`,
    );
  }
  return { destDir, pairs: await globPairs(baseAbs, scan.glob, action.match) };
}

async function globPairs(base: string, pattern: string, original: string): Promise<CopyPlan['pairs']> {
  const files = await glob(pattern, { cwd: base, dot: true, onlyFiles: true, expandDirectories: false });
  if (files.length === 0) {
    throw new Error(`copy: pattern ${JSON.stringify(original)} matched no files (searched ${base})`);
  }
  return files.sort().map((rel) => ({ from: join(base, rel), to: rel }));
}

/** The destination as an absolute path inside the workspace; `..` escapes and absolute paths are refused. */
export function resolveDestination(destination: string, workspace: string): string {
  if (isAbsolute(destination) || /^[a-zA-Z]:|^[\\/]/.test(destination)) {
    throw new Error(`copy: destination ${JSON.stringify(destination)} must be relative to the workspace`);
  }
  const abs = resolve(workspace, destination);
  if (!isInside(abs, workspace)) {
    throw new Error(`copy: destination ${JSON.stringify(destination)} escapes the workspace`);
  }
  return abs;
}

/** Every file a remote scenario copies must really be inside its checkout (no `..`, no symlink out). */
async function confineSources(plan: CopyPlan, root: string): Promise<void> {
  const realRoot = await realpath(root);
  for (const { from } of plan.pairs) {
    if (!isInside(await realpath(from), realRoot))
      throw new Error(`copy: ${from} is outside the remote scenario's checkout (${root})`);
  }
}

/**
 * Copies what `action` names into the workspace and returns how many files. Throws an Error with a
 * readable message (nothing matched, a source outside a remote checkout, a destination outside the
 * workspace).
 */
export async function copyFiles(action: CopyAction, configDir: string, workspace: string): Promise<number> {
  const plan = await planCopy(action, action.root ?? configDir, workspace);
  if (action.root) await confineSources(plan, action.root);
  await mkdir(plan.destDir, { recursive: true });
  // A symlink created by an earlier script must not redirect the copy outside the workspace.
  const realDest = await realpath(plan.destDir);
  const realWs = await realpath(workspace);
  if (!isInside(realDest, realWs)) {
    throw new Error(`copy: destination ${JSON.stringify(action.destination)} resolves outside the workspace`);
  }
  for (const { from, to } of plan.pairs) await copyFile(from, await confinedTarget(realDest, to, realWs));
  return plan.pairs.length;
}

/**
 * Where `to` (below `realDest`) is written, its folders made one by one: a link on the way (the agent's,
 * before a teardown copy) is followed only when it stays in the workspace. AXIS runs outside any
 * sandbox, so a link leading out would let the agent have any of the user's files overwritten.
 */
async function confinedTarget(realDest: string, to: string, realWs: string): Promise<string> {
  const parts = to.split(/[\\/]/).filter(Boolean);
  let at = realDest;
  for (const [i, part] of parts.entries()) {
    const path = join(at, part);
    const st = await lstat(path).catch(() => undefined);
    const last = i === parts.length - 1;
    if (!st) {
      if (last) return path;
      await mkdir(path);
      at = path;
    } else if (st.isSymbolicLink()) {
      const real = await realpath(path).catch(() => undefined);
      if (!real || !isInside(real, realWs)) {
        const what = real ? 'a link leading outside it' : 'a broken link';
        throw new Error(`copy: ${relative(realWs, path)} in the workspace is ${what} (not followed)`);
      }
      at = real;
    } else at = path;
  }
  // Copying onto a FIFO would wait for a reader forever (the teardown copy has no timeout).
  const st = await stat(at);
  if (!st.isFile()) {
    const shown = relative(realWs, at);
    throw new Error(`copy: ${shown} in the workspace is ${fileKind(st)}, not a regular file (not written)`);
  }
  return at;
}
