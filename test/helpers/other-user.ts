/**
 * Tests that run AXIS as another user (root drops to `nobody` with setpriv) need that user to reach
 * AXIS's files: `bin/axis.js`, `dist/`, and the few packages the bundle loads from `node_modules/`. A
 * checkout made in `mktemp -d` has a 0700 root directory, and one under a private directory (`/root/…`)
 * sits below a closed one, so the other user could not even start AXIS ("Cannot find module
 * …/bin/axis.js"). {@link axisBinForOthers} opens the checkout's own directory for traversal (o+x, only
 * when running as root and owning it); when a directory above it is still closed, which a test must not
 * change, it runs AXIS from a copy of what it needs at run time in a world-searchable temp directory.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
/** What `bin/axis.js` loads at run time: the package's files and the bundle's external packages. */
const RUNTIME = ['bin', 'dist', 'schema', 'skills', 'package.json'];
const EXTERNAL_PACKAGES = ['jiti', 'picomatch'];

let copy: string | undefined;

/** A `bin/axis.js` another user can run: the checkout's, or a copy's when the checkout is out of reach. */
export function axisBinForOthers(): string {
  return join(closedAbove(ROOT) ? runtimeCopy() : ROOT, 'bin', 'axis.js');
}

/** The first directory above `dir` that other users cannot search, after opening `dir` itself. */
function closedAbove(dir: string): string | undefined {
  const st = statSync(dir);
  if (process.getuid?.() === 0 && st.uid === 0 && (st.mode & 0o001) === 0) chmodSync(dir, st.mode | 0o001);
  for (let d = dirname(dir); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return d;
    if (d === dirname(d)) return undefined;
  }
}

function runtimeCopy(): string {
  if (copy) return copy;
  const dir = mkdtempSync(join(tmpdir(), 'axis-runtime-'));
  chmodSync(dir, 0o755);
  const blocked = closedAbove(dir);
  if (blocked)
    throw new Error(
      `${blocked} is closed to other users: tests that run AXIS as another user need a searchable temp directory for a copy of AXIS (TMPDIR)`,
    );
  for (const f of RUNTIME) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  for (const p of EXTERNAL_PACKAGES)
    cpSync(join(ROOT, 'node_modules', p), join(dir, 'node_modules', p), { recursive: true });
  return (copy = dir);
}

/** Removes the copy, if one was made (the test file's afterAll: a test worker may end without `exit`). */
export function removeRuntimeCopy(): void {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
}
