/**
 * Tests that run AXIS as another user (root drops to `nobody` with setpriv) need that user to reach the
 * checkout: `bin/axis.js`, `dist/` and `node_modules/`. A checkout made in `mktemp -d` has a 0700 root
 * directory, so the other user could not even start AXIS ("Cannot find module …/bin/axis.js"). This
 * opens the checkout's own directory for traversal (o+x, only when running as root and owning it), and
 * fails with a clear message when a directory above it is closed, which a test cannot change.
 */
import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

export function checkoutReachableByOthers(): void {
  const st = statSync(ROOT);
  if (process.getuid?.() === 0 && st.uid === 0 && (st.mode & 0o001) === 0) chmodSync(ROOT, st.mode | 0o001);
  for (let d = dirname(ROOT); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0)
      throw new Error(
        `${d} is closed to other users (mode ${(statSync(d).mode & 0o777).toString(8)}): tests that run AXIS as another user need every directory above the checkout ${ROOT} to be searchable (o+x)`,
      );
    if (d === dirname(d)) break;
  }
}
