import type { Dirent } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, posix } from 'node:path';
import picomatch from 'picomatch';
import { formatBytes } from '../util/bytes.js';
import { isInside } from '../exec/workspace.js';
import type { ArtifactEntry } from '../report/job-result.js';

export const DEFAULT_MAX_ARTIFACT_FILE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_MAX_ARTIFACT_TOTAL_BYTES = 25 * 1024 * 1024;

export interface CaptureArtifactsOptions {
  /** The job's `work/` dir; nothing outside it is ever read. */
  workDir: string;
  /** Globs relative to `workDir` (config + scenario, see {@link mergeArtifactPatterns}). */
  patterns: readonly string[];
  /** Captured files are copied here, keeping their relative paths. */
  destDir: string;
  maxFileBytes?: number;
  maxTotalBytes?: number;
  /**
   * The name a file is stored and listed under (the report's scrubber: a secret in a file or folder name
   * never reaches the disk). Two files that map to one name keep both, the later one numbered.
   */
  storedName?: (rel: string) => string;
  /**
   * Secrets redacted from a file's bytes before its copy is written (null: nothing to change), so no
   * unredacted copy is ever on disk, not even when a later copy fails.
   */
  scrubBytes?: (buf: Buffer) => Buffer | null;
}

/** Config patterns then scenario patterns, `./` stripped, empty and duplicate entries dropped. */
export function mergeArtifactPatterns(...lists: (readonly string[] | undefined)[]): string[] {
  const out = new Set<string>();
  for (const list of lists) {
    for (const raw of list ?? []) {
      const p = normalizePattern(raw);
      if (p) out.add(p);
    }
  }
  return [...out];
}

function normalizePattern(raw: string): string {
  return raw
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
}

/**
 * Copies the files of `workDir` matching `patterns` into `destDir`. Symlinks are never followed
 * while walking; a matched symlink is captured only when it points at a regular file inside
 * `workDir`. Files over the per-file cap, or that would push the total over its cap, are listed
 * with `skipped` and not copied. Entries are sorted by path.
 */
export async function captureArtifacts(opts: CaptureArtifactsOptions): Promise<ArtifactEntry[]> {
  const maxFile = opts.maxFileBytes ?? DEFAULT_MAX_ARTIFACT_FILE_BYTES;
  const maxTotal = opts.maxTotalBytes ?? DEFAULT_MAX_ARTIFACT_TOTAL_BYTES;
  const patterns = mergeArtifactPatterns(opts.patterns);
  if (patterns.length === 0) return [];
  const root = await realpath(opts.workDir);
  const candidates = await findMatches(
    root,
    patterns.filter((p) => !escapes(p)),
  );

  const entries: ArtifactEntry[] = patterns.filter(escapes).map((p) => ({
    path: p,
    size: 0,
    mimeType: mimeTypeFor(p),
    skipped: 'pattern points outside the workspace',
  }));
  let total = 0;
  const taken = new Set<string>();
  const storedAs = (rel: string): string => {
    const name = opts.storedName?.(rel) ?? rel;
    let out = name;
    for (let n = 2; taken.has(out); n++) {
      const ext = extname(name);
      out = `${name.slice(0, name.length - ext.length)}-${n}${ext}`;
    }
    taken.add(out);
    return out;
  };
  for (const rel of candidates) {
    const abs = join(root, ...rel.split('/'));
    const mimeType = mimeTypeFor(rel);
    const source = await resolveSource(abs, root);
    if ('skipped' in source) {
      entries.push({ path: rel, size: source.size, mimeType, skipped: source.skipped });
      continue;
    }
    const { size } = source;
    if (size > maxFile) {
      entries.push({
        path: rel,
        size,
        mimeType,
        skipped: `larger than the per-file limit (${formatBytes(maxFile)})`,
      });
      continue;
    }
    if (total + size > maxTotal) {
      entries.push({
        path: rel,
        size,
        mimeType,
        skipped: `total artifact limit reached (${formatBytes(maxTotal)})`,
      });
      continue;
    }
    const stored = storedAs(rel);
    const target = join(opts.destDir, ...stored.split('/'));
    await mkdir(dirname(target), { recursive: true });
    if (opts.scrubBytes) {
      // At most the per-file cap in memory.
      const buf = await readFile(source.real);
      await writeFile(target, opts.scrubBytes(buf) ?? buf);
    } else await copyFile(source.real, target);
    total += size;
    entries.push({ path: stored, size, mimeType });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Absolute patterns and `..` segments would reach outside the workspace. */
function escapes(pattern: string): boolean {
  return pattern.startsWith('/') || /^[a-zA-Z]:/.test(pattern) || pattern.split('/').includes('..');
}

type Source = { real: string; size: number } | { skipped: string; size: number };

async function resolveSource(abs: string, root: string): Promise<Source> {
  const st = await lstat(abs);
  if (!st.isSymbolicLink()) return { real: abs, size: st.size };
  const real = await realpath(abs).catch(() => undefined);
  if (!real) return { skipped: 'broken symlink', size: 0 };
  if (!isInside(real, root)) return { skipped: 'symlink points outside the workspace', size: 0 };
  const target = await stat(real);
  if (!target.isFile()) return { skipped: 'symlink to something other than a file', size: 0 };
  return { real, size: target.size };
}

/**
 * Relative paths (forward slashes, sorted, deduped) of files and symlinks under `root` matching any
 * pattern. A pattern naming a directory matches everything below it. Walking starts at each
 * pattern's static base and never descends through a symlink.
 */
async function findMatches(root: string, patterns: readonly string[]): Promise<string[]> {
  const usable = patterns;
  const matchers = usable.map((p) => picomatch(p, { dot: true }));
  const matches = (rel: string): boolean => matchers.some((m) => m(rel));
  const bases = new Set(usable.map((p) => picomatch.scan(p).base.replace(/\/+$/, '')));
  // Walking from '' covers every other base.
  const starts = bases.has('')
    ? ['']
    : [...bases].filter((b) => ![...bases].some((o) => o !== b && b.startsWith(`${o}/`)));

  const found = new Set<string>();
  const walk = async (rel: string, inMatchedDir: boolean): Promise<void> => {
    let dirents: Dirent[];
    try {
      dirents = await readdir(rel ? join(root, rel) : root, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of dirents) {
      const child = rel ? posix.join(rel, d.name) : d.name;
      const hit = inMatchedDir || matches(child);
      if (d.isDirectory()) await walk(child, hit);
      else if ((d.isFile() || d.isSymbolicLink()) && hit) found.add(child);
    }
  };

  for (const start of starts) {
    if (start === '') {
      await walk('', false);
      continue;
    }
    const kind = await baseKind(root, start);
    if (kind === 'dir') await walk(start, matches(start));
    else if (kind === 'leaf' && matches(start)) found.add(start);
  }
  return [...found].sort();
}

/** What a pattern's static base is, refusing any path that passes through a symlinked directory. */
async function baseKind(root: string, rel: string): Promise<'dir' | 'leaf' | undefined> {
  const parts = rel.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const st = await lstat(join(root, ...parts.slice(0, i))).catch(() => undefined);
    if (!st) return undefined;
    const last = i === parts.length;
    if (st.isSymbolicLink()) return last ? 'leaf' : undefined;
    if (last) return st.isDirectory() ? 'dir' : st.isFile() ? 'leaf' : undefined;
    if (!st.isDirectory()) return undefined;
  }
  return undefined;
}

const MIME: Record<string, string> = {
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.jsx': 'text/javascript',
  '.ts': 'text/typescript',
  '.tsx': 'text/typescript',
  '.mts': 'text/typescript',
  '.cts': 'text/typescript',
  '.json': 'application/json',
  '.jsonl': 'application/x-ndjson',
  '.ndjson': 'application/x-ndjson',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.py': 'text/x-python',
  '.rb': 'text/x-ruby',
  '.go': 'text/x-go',
  '.rs': 'text/x-rust',
  '.java': 'text/x-java',
  '.c': 'text/x-c',
  '.h': 'text/x-c',
  '.cpp': 'text/x-c++',
  '.sh': 'application/x-sh',
  '.sql': 'application/sql',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.wasm': 'application/wasm',
};

/** MIME type by file extension; `application/octet-stream` when unknown. */
export function mimeTypeFor(path: string): string {
  return MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export { formatBytes };
