/**
 * Real git repositories for tests: a work tree whose commits are pushed to a bare repository that AXIS
 * then reads through a file:// URL (never the network).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface TestRepo {
  /** file:// URL of the bare repository. */
  url: string;
  bare: string;
  work: string;
  /** Writes files (objects as JSON), commits them on the current branch and pushes; returns the commit. */
  commit(files: Record<string, string | object>, message?: string): string;
  tag(name: string): void;
  run(...args: string[]): string;
}

/** `<root>/<owner>/<name>.git` (bare) and a work tree beside it, with one branch `main`. */
export function createRepo(root: string, owner: string, name: string): TestRepo {
  const bare = join(root, owner, `${name}.git`);
  const work = join(root, 'work', owner, name);
  mkdirSync(bare, { recursive: true });
  mkdirSync(work, { recursive: true });
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'T',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 'T',
    GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const run = (...args: string[]) => execFileSync('git', args, { cwd: work, env, encoding: 'utf8' }).trim();
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare], { env });
  run('init', '-q', '-b', 'main');
  run('remote', 'add', 'origin', bare);
  return {
    url: `file://${bare}`,
    bare,
    work,
    run,
    commit(files, message = 'change') {
      for (const [path, content] of Object.entries(files)) {
        const full = join(work, path);
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
      }
      run('add', '-A');
      run('commit', '-q', '-m', message);
      run('push', '-q', 'origin', 'HEAD:main');
      return run('rev-parse', 'HEAD');
    },
    tag(tagName) {
      run('tag', tagName);
      run('push', '-q', 'origin', tagName);
    },
  };
}
