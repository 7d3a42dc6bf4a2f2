/**
 * A V8 code cache for the CLI's bundle: each chunk's compiled code is kept on disk after a command and
 * handed back to V8 by the next, which then skips parsing and compiling it (about 50 ms of a one-job
 * `axis run`, docs/performance.md#start-up). Written by hand: Node 22's `module.enableCompileCache` does
 * this, Node 20 has nothing of the kind, and v8-compile-cache takes its data when a module is compiled,
 * before the functions compiled lazily (most of a command's code) exist; here it is taken when the
 * process exits, so it holds everything the command ran.
 *
 * Safety: V8 checks a cache against its own version, its flags and the source's length, and runs the
 * source instead when one does not match. The directory's name carries Node's version and each file's
 * the chunk's size and modification time, so an edited chunk never meets an old cache. Cached code is
 * code: the directory must be the user's own and writable by nobody else, or it is not used.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';
import { changedFlags, restoreFlagsTo } from '../util/v8-flags.js';

/**
 * The cache directory for this Node, or undefined when caching is off. `AXIS_CODE_CACHE`: `0`, `off` or
 * `false` turns it off; a path puts it there; unset, it is the user's cache directory (XDG_CACHE_HOME or
 * ~/.cache, LOCALAPPDATA on Windows) under `axis/code-cache`.
 */
export function codeCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: () => string = homedir,
): string | undefined {
  const given = env.AXIS_CODE_CACHE?.trim();
  if (given !== undefined && /^(0|off|false|no)$/i.test(given)) return undefined;
  let base: string;
  if (given) base = resolve(given);
  else {
    const root =
      platform === 'win32'
        ? env.LOCALAPPDATA
        : env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
          ? env.XDG_CACHE_HOME
          : undefined;
    let user: string;
    try {
      user = root ?? join(home(), platform === 'win32' ? join('AppData', 'Local') : '.cache');
    } catch {
      return undefined; // no home directory (a system user): no cache
    }
    base = join(user, 'axis', 'code-cache');
  }
  return join(base, `node-${process.version}-${process.arch}`);
}

/**
 * Whether `dir` can hold code this process will run: made if missing (private to the user), a real
 * directory, and on POSIX owned by this user and writable by no one else.
 */
export function usableCacheDir(dir: string, platform: NodeJS.Platform = process.platform): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return false;
    if (platform === 'win32') return true;
    if (st.uid !== process.getuid?.()) return false;
    if ((st.mode & 0o022) !== 0) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * The cache file for a chunk: its name, size and modification time (so any change misses it), and the
 * V8 flags the CLI had changed when it loaded, if any (a chunk a run loads after its heap and tiering
 * flags are set is cached under those flags, and V8 would refuse it under others).
 */
export function cacheFile(dir: string, filename: string, flags: string): string {
  const st = statSync(filename);
  const under = flags === '' ? '' : `.${fnv1a(flags)}`;
  return join(dir, `${basename(filename)}.${st.size}-${Math.trunc(st.mtimeMs)}${under}.v8`);
}

/** A short stable name for a text (32-bit FNV-1a), without loading node:crypto at start-up. */
function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

interface Compiled {
  file: string;
  script: Script;
  flags: string;
}

/**
 * Loads the CommonJS modules under `bundleDir` through V8 scripts with a code cache in `dir`; every
 * other module loads as before. The caches of chunks that had none (or a stale one) are written when the
 * process exits. Nothing is done when `dir` is undefined or not usable, and any failure to read or write
 * a cache only costs the time the cache would have saved.
 */
export function installCodeCache(bundleDir: string, root: string | undefined = codeCacheDir()): boolean {
  // One folder per installed copy of AXIS, so that pruning one's stale files never touches another's.
  const dir = root && join(root, fnv1a(resolve(bundleDir)));
  if (!dir || !usableCacheDir(root) || !usableCacheDir(dir)) return false;
  const prefix = bundleDir.endsWith(sep) ? bundleDir : `${bundleDir}${sep}`;
  const extensions = (Module as unknown as { _extensions: Record<string, LoadExtension> })._extensions;
  const original = extensions['.js']!;
  const fresh: Compiled[] = [];
  extensions['.js'] = function (module, filename) {
    if (!filename.startsWith(prefix)) return original.call(this, module, filename);
    loadCached(module, filename, dir, fresh);
  };
  process.once('exit', () => writeCaches(fresh, dir, bundleDir));
  return true;
}

type LoadExtension = (this: unknown, module: NodeModule, filename: string) => void;

function loadCached(module: NodeModule, filename: string, dir: string, fresh: Compiled[]): void {
  const source = readFileSync(filename, 'utf8');
  const flags = changedFlags();
  let file: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    file = cacheFile(dir, filename, flags);
    cachedData = readFileSync(file);
  } catch {
    // no cache yet
  }
  const script = new Script(Module.wrap(source), {
    filename,
    cachedData,
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (file && (!cachedData || script.cachedDataRejected)) fresh.push({ file, script, flags });
  const wrapper = script.runInThisContext({ displayErrors: true }) as (
    exports: unknown,
    require: NodeJS.Require,
    module: NodeModule,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(module.exports, module.exports, requireFor(module), module, filename, dirname(filename));
}

/** The `require` a CommonJS module is given (the bundle's chunks use require() and require.resolve). */
function requireFor(module: NodeModule): NodeJS.Require {
  const req = ((id: string) => module.require(id)) as NodeJS.Require;
  const M = Module as unknown as {
    _resolveFilename(r: string, m: NodeModule, main: boolean, o?: unknown): string;
    _cache: NodeJS.Require['cache'];
  };
  req.resolve = ((request: string, options?: { paths?: string[] }) =>
    M._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve;
  req.resolve.paths = (request: string) => Module.createRequire(module.filename).resolve.paths(request);
  req.cache = M._cache;
  req.main = (process as { mainModule?: NodeModule }).mainModule;
  return req;
}

/**
 * Each new cache, written atomically (a command running beside this one may read it), under the flags
 * its chunk loaded under: V8 refuses a cache made under other flags.
 */
function writeCaches(fresh: Compiled[], dir: string, bundleDir: string): void {
  if (fresh.length === 0) return;
  for (const { file, script, flags } of fresh) {
    try {
      restoreFlagsTo(flags);
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, file);
    } catch {
      // a full disk or a read-only cache: the next command compiles the source, as without a cache
    }
  }
  pruneCaches(dir, bundleDir);
  markCopy(dir, bundleDir);
  pruneCopies(dirname(dir), dir);
}

const CACHE_NAME = /^(.+\.js)\.(\d+)-(\d+)(?:\.[0-9a-z]+)?\.v8$/;
const HOUR_MS = 3_600_000;

/**
 * Removes the caches of chunks this copy of AXIS no longer has, or has changed (a rebuild, an upgrade
 * in place), and temporary files a killed process left more than an hour ago. Run only after writing
 * new caches, which is when old ones can have been replaced.
 */
export function pruneCaches(dir: string, bundleDir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      const m = CACHE_NAME.exec(name);
      let stale = false;
      if (m) {
        const st = statSync(join(bundleDir, m[1]!), { throwIfNoEntry: false });
        stale = !st || st.size !== Number(m[2]) || Math.trunc(st.mtimeMs) !== Number(m[3]);
      } else if (name.endsWith('.tmp')) stale = now - lstatSync(path).mtimeMs > HOUR_MS;
      if (stale) rmSync(path, { force: true });
    } catch {
      // gone already, or not ours to remove: left as it is
    }
  }
}

/** The file in a copy's folder naming that copy's bundle directory. */
export const COPY_FILE = 'bundle-dir';

/** Names this folder's copy of AXIS, so that another copy's pruning can tell when it is gone. */
function markCopy(dir: string, bundleDir: string): void {
  const named = resolve(bundleDir);
  try {
    if (readFileSync(join(dir, COPY_FILE), 'utf8') === named) return;
  } catch {
    // not written yet
  }
  try {
    writeFileSync(join(dir, COPY_FILE), named, { mode: 0o600 });
  } catch {
    // only the pruning of this folder, once its copy is gone, is lost
  }
}

/** A folder nothing was written to for this long, with no copy named in it to check, is removed. */
const STALE_MS = 30 * 24 * HOUR_MS;
const COPY_FOLDER = /^[0-9a-z]{1,7}$/;
const NODE_FOLDER = /^node-v\d+\.\d+\.\d+-[0-9a-z]+$/;

/**
 * Removes the cache folders nothing will read again, about 2 MB each: beside `own` in `nodeDir`, those
 * of copies of AXIS that were deleted (their bundle has no main.js any more; a folder naming no copy
 * when untouched for 30 days); and beside `nodeDir`, the folders of other Node versions untouched for
 * 30 days. Run only after writing new caches (rare), and only on real directories of this user's, in a
 * cache directory already found private to them. A folder removed while still in use only costs its
 * copy one rewrite of its caches.
 */
export function pruneCopies(nodeDir: string, own: string, now = Date.now()): void {
  for (const name of entries(nodeDir)) {
    const path = join(nodeDir, name);
    if (path === own || !COPY_FOLDER.test(name) || !ownDir(path)) continue;
    let gone: boolean;
    try {
      const bundleDir = readFileSync(join(path, COPY_FILE), 'utf8');
      gone = !isAbsolute(bundleDir) || !statSync(join(bundleDir, 'main.js'), { throwIfNoEntry: false });
    } catch {
      gone = untouched(path, now);
    }
    if (gone) remove(path);
  }
  const base = dirname(nodeDir);
  for (const name of entries(base)) {
    const path = join(base, name);
    if (path === nodeDir || !NODE_FOLDER.test(name) || !ownDir(path)) continue;
    if (untouched(path, now) && entries(path).every((c) => untouched(join(path, c), now))) remove(path);
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function ownDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && (process.getuid === undefined || st.uid === process.getuid());
  } catch {
    return false;
  }
}

function untouched(path: string, now: number): boolean {
  try {
    return now - lstatSync(path).mtimeMs > STALE_MS;
  } catch {
    return true;
  }
}

function remove(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // in use or not ours after all: left as it is
  }
}
