// The private-/tmp check of the host, run in the background while `axis run` loads its config
// (startPrivateTmpCheck in src/exec/job-space.ts): the same answer as the synchronous check, whatever
// the helper does.
import { describe, expect, it } from 'vitest';
import { containment } from '../../../src/exec/contain.js';
import {
  helperBindProblem,
  helperBindProblemAsync,
  privateTmpProblem,
  privateTmpReady,
  startPrivateTmpCheck,
} from '../../../src/exec/job-space.js';

/** A stand-in helper: `script` run by sh with the probe's fstab on stdin, `$1` saying which probe. */
const fake =
  (script: string) =>
  ({ hostPid }: { hostPid?: boolean }) => ['/bin/sh', '-c', script, 'sh', hostPid ? 'host' : 'pidns'];

describe('the private-/tmp check in the background', () => {
  it.each([
    ['a helper that works', fake('cat >/dev/null; exit 0')],
    ['a helper that is not there', () => ['/nonexistent/axis-contain']],
    ['a helper that fails, saying why', fake('cat >/dev/null; echo "mount: permission denied" >&2; exit 3')],
    ['a helper that fails silently', fake('exit 5')],
    ['a helper that never reads its stdin', fake('echo early >&2; exit 1')],
    [
      'only the host-PID probe fails',
      fake('cat >/dev/null; [ "$2" = pidns ] || { echo "no host" >&2; exit 1; }'),
    ],
    ['a helper killed by a signal', fake('kill -9 $$')],
  ])('%s: the same answer as the synchronous check', async (_, space) => {
    const sync = helperBindProblem(space);
    expect(await helperBindProblemAsync(space)).toBe(sync);
    if (sync !== null) expect(sync).toMatch(/^mount namespaces are not permitted here \(.+\)$/);
  });

  it('names what the helper said and which probe failed', async () => {
    expect(await helperBindProblemAsync(fake('cat >/dev/null; echo "mount: denied" >&2; exit 3'))).toBe(
      'mount namespaces are not permitted here (mount: denied)',
    );
    expect(await helperBindProblemAsync(fake('exit 5'))).toBe(
      'mount namespaces are not permitted here (exit 5)',
    );
    expect(
      await helperBindProblemAsync(
        fake('cat >/dev/null; [ "$2" = pidns ] || { echo "no host" >&2; exit 1; }'),
      ),
    ).toBe('mount namespaces are not permitted here (no host)');
    expect(await helperBindProblemAsync(() => ['/nonexistent/axis-contain'])).toMatch(/ENOENT/);
  });

  it('started before the run needs it, it gives privateTmpProblem the real check’s answer', async () => {
    startPrivateTmpCheck();
    startPrivateTmpCheck(); // a second start is the same check
    await privateTmpReady();
    const space = containment().space;
    expect(privateTmpProblem()).toBe(space ? helperBindProblem(space) : privateTmpProblem());
  });
});
