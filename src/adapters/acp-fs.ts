/**
 * The ACP client's answers that need no connection: which permission option to pick, and where a file
 * request may go (inside the workspace only), with the line slicing `fs/read_text_file` asks for.
 */
import { constants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isInside } from '../exec/workspace.js';
import { fileKind } from '../util/input-file.js';

/** Prefers a one-time allow, then a persistent allow; never a reject option. */
export function pickPermission(
  options: ReadonlyArray<{ optionId: string; kind: string }>,
): string | undefined {
  return (options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always'))
    ?.optionId;
}

/** Links followed before giving up, as the kernel's ELOOP does. */
const MAX_LINKS = 40;

/**
 * The real path a file request may touch, or an error message. The path must be absolute and, after
 * resolving symlinks (of the file or, for a new file, of its nearest existing parent, and a broken link's
 * target, which a write would create), inside `root`.
 */
export async function confinedPath(
  path: string,
  root: string,
): Promise<{ path: string } | { error: string }> {
  if (!isAbsolute(path)) return { error: `path must be absolute, found "${path}"` };
  let probe = resolve(path);
  let rest = '';
  let links = 0;
  for (;;) {
    try {
      const real = await realpath(probe);
      const full = rest ? resolve(real, rest) : real;
      return isInside(full, root)
        ? { path: full }
        : { error: `access outside the workspace is not allowed: ${path}` };
    } catch {
      const link = await readlink(probe).catch(() => undefined);
      if (link !== undefined && ++links <= MAX_LINKS) {
        probe = resolve(dirname(probe), link);
        continue;
      }
      const parent = dirname(probe);
      if (parent === probe) return { error: `access outside the workspace is not allowed: ${path}` };
      rest = rest ? `${probe.slice(parent.length + 1)}/${rest}` : probe.slice(parent.length + 1);
      probe = parent;
    }
  }
}

/** `line` is 1-based; `limit` counts lines. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (!line && !limit) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  return lines.slice(start, limit ? start + limit : undefined).join('\n');
}

/**
 * Writes `content` to a regular file at `path` (a real path), or says why not. Opened without blocking
 * and without following a link: a FIFO the agent made would otherwise never see a reader, and hold the
 * write (and one of Node's few I/O threads) forever.
 */
export async function writeRegularFile(path: string, content: string): Promise<string | undefined> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;
  let fh;
  try {
    fh = await open(path, flags, 0o666);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENXIO: a FIFO with no reader.
    return code === 'ENXIO' ? 'expected a regular file, found a FIFO (named pipe)' : (code ?? String(err));
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return `expected a regular file, found ${fileKind(st)}`;
    await fh.truncate(0);
    await fh.writeFile(content);
    return undefined;
  } finally {
    await fh.close();
  }
}
