import { execFileSync } from 'node:child_process';
import { afterAll } from 'vitest';

/**
 * A tmux server of this test file's own (its socket name holds the file's tag and process id, so it never
 * touches anyone else's), killed after the file's tests. Returns the tmux command bound to that server.
 */
export function tmuxServer(tag: string): (...args: string[]) => string {
  const socket = `axis-${tag}-test-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // no server was started
    }
  });
  return tmux;
}
