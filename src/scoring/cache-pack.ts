/**
 * The judge cache's files (docs/scoring.md#judge-cache). Each AXIS process appends the answers it stores
 * to a pack file of its own, `<stamp>-<pid>-<random>.pack`, one line per answer: the 64-hex key, a space,
 * the entry as JSON. One file per run instead of one per answer: on the file systems AXIS runs on,
 * creating a file costs about a millisecond, and a short scored job stores two answers. Once more than
 * {@link COMPACT_AT} finished packs pile up, a closing process merges them (size-tiered, so a big cache
 * is not rewritten every time) into one pack with an index beside it, `<name>.idx`: a header line
 * `axis-judge-index 1 <pack bytes>`, then `<key> <offset> <length>` per entry, so a reader learns where
 * every answer is without reading the answers. Readers look at every pack: through its index when the
 * index matches the pack's size, else by scanning it (a run's own pack, small). A half-written last line
 * (a killed run) is skipped. Written by hand: no embeddable key-value store runs on Node 20 without a
 * native build.
 */
import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, join } from 'node:path';

/** Finished packs without an index tolerated before a closing process merges them. */
export const COMPACT_AT = 16;
const INDEX_HEADER = 'axis-judge-index 1';
const KEY = /^[0-9a-f]{64}$/;
/** Nothing this large is a judge answer: such a line is skipped, not read. */
const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
/** A pack is scanned this many bytes at a time (more than any entry's line). */
const SCAN_WINDOW_BYTES = MAX_ENTRY_BYTES + 1024;

export interface EntryLocation {
  pack: string;
  offset: number;
  length: number;
}

/** Packs being written by this process (their owner's pid is ours, yet they are not finished). */
const openPacks = new Set<string>();

export function newPackName(): string {
  return `${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 10)}.pack`;
}

/** A pack this process appends to; the directory must exist. */
export class PackWriter {
  private fd: number;
  private bytes: number;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a', 0o644);
    this.bytes = fstatSync(this.fd).size;
    openPacks.add(path);
  }

  /** false when the file was removed since it was opened (someone cleared the cache). */
  get alive(): boolean {
    return fstatSync(this.fd).nlink > 0;
  }

  /** Where each entry now is in the pack: all of them appended with one write. */
  appendAll(entries: readonly (readonly [key: string, json: string])[]): EntryLocation[] {
    const lines = entries.map(([key, json]) => Buffer.from(`${key} ${json}\n`, 'utf8'));
    writeAll(this.fd, lines.length === 1 ? lines[0]! : Buffer.concat(lines));
    return lines.map((line) => {
      const loc = { pack: this.path, offset: this.bytes + 65, length: line.length - 66 };
      this.bytes += line.length;
      return loc;
    });
  }

  close(): void {
    openPacks.delete(this.path);
    closeSync(this.fd);
  }
}

function writeAll(fd: number, buf: Buffer): void {
  for (let at = 0; at < buf.length;) at += writeSync(fd, buf, at, buf.length - at);
}

export interface CacheListing {
  /** Where every answer in a pack is (the newest pack's answer wins). */
  locations: Map<string, EntryLocation>;
  /** Keys with a `<key>.json` file of their own (a cache written before packs). */
  legacy: Set<string>;
}

/** What the cache in `dir` holds, from one listing of it (a missing directory holds nothing). */
export function readListing(dir: string): CacheListing {
  const out = new Map<string, EntryLocation>();
  const names = listDir(dir);
  const legacy = new Set<string>();
  for (const n of names) if (n.length === 69 && n.endsWith('.json')) legacy.add(n.slice(0, 64));
  for (const name of packNames(names)) {
    const pack = join(dir, name);
    try {
      for (const [key, loc] of packLocations(pack)) out.set(key, loc);
    } catch {
      // removed or unreadable since it was listed: its answers are misses
    }
  }
  return { locations: out, legacy };
}

/** The entry's JSON text, or undefined when it cannot be read back as written. */
export function readEntry(loc: EntryLocation, key: string): string | undefined {
  const { offset, length } = loc;
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) return undefined;
  if (offset < 65 || length < 1 || length > MAX_ENTRY_BYTES) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(loc.pack, 'r');
    const buf = Buffer.allocUnsafe(loc.length + 66);
    const n = readSync(fd, buf, 0, buf.length, loc.offset - 65);
    const line = buf.subarray(0, n);
    // The key and the line's end must be where the location says: a stale index never gives a wrong answer.
    if (line.toString('latin1', 0, 65) !== `${key} ` || line[65 + loc.length] !== 0x0a) return undefined;
    return line.toString('utf8', 65, 65 + loc.length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The pack names among `names`, oldest first (names start with a base-36 time). */
function packNames(names: readonly string[]): string[] {
  return names.filter((n) => n.endsWith('.pack')).sort(byStamp);
}

/** `<name>.idx` beside `<name>.pack`. */
function indexPathOf(pack: string): string {
  return `${pack.slice(0, -'.pack'.length)}.idx`;
}

function byStamp(a: string, b: string): number {
  const sa = a.replace(/^c-/, '');
  const sb = b.replace(/^c-/, '');
  return sa.length - sb.length || (sa < sb ? -1 : sa > sb ? 1 : 0);
}

function packLocations(pack: string): Iterable<[string, EntryLocation]> {
  return indexLocations(pack) ?? scanLocations(pack);
}

/** The pack's index, if it has one that matches the pack's size. */
function indexLocations(pack: string): [string, EntryLocation][] | undefined {
  let text: string;
  try {
    text = readFileSync(indexPathOf(pack), 'latin1');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const header = lines[0]!.split(' ');
  if (`${header[0]} ${header[1]}` !== INDEX_HEADER || Number(header[2]) !== statSync(pack).size)
    return undefined;
  const out: [string, EntryLocation][] = [];
  for (let i = 1; i < lines.length; i++) {
    const [key, offset, length] = lines[i]!.split(' ');
    if (key === undefined || !KEY.test(key)) continue;
    out.push([key, { pack, offset: Number(offset), length: Number(length) }]);
  }
  return out;
}

/**
 * Every complete line of the pack; a line that is not `<key> <json>`, or longer than an entry can be,
 * is skipped. Read a window at a time, so a pack of any size costs at most one window of memory.
 */
function* scanLocations(pack: string): Generator<[string, EntryLocation]> {
  const fd = openSync(pack, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(fstatSync(fd).size, SCAN_WINDOW_BYTES) + 1);
    let base = 0; // file offset of buf[0]
    let filled = 0;
    let skipping = false; // inside a line too long for the window: up to its newline
    for (;;) {
      const n = readSync(fd, buf, filled, buf.length - filled, base + filled);
      filled += n;
      let at = 0;
      for (let end = buf.indexOf(0x0a, at); end !== -1 && end < filled; end = buf.indexOf(0x0a, at)) {
        const key = buf.toString('latin1', at, at + 64);
        if (!skipping && end - at > 66 && buf[at + 64] === 0x20 && KEY.test(key))
          yield [key, { pack, offset: base + at + 65, length: end - at - 65 }];
        skipping = false;
        at = end + 1;
      }
      if (n === 0) return; // what is left is a half-written last line
      if (at === 0 && filled === buf.length) {
        // No line end in a whole window: no entry is that long.
        skipping = true;
        at = filled;
      }
      buf.copy(buf, 0, at, filled);
      base += at;
      filled -= at;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Merges finished packs when more than {@link COMPACT_AT} lack an index: all of those, and any indexed
 * pack no bigger than what is merged with it so far (smallest first). The merged pack and its index are
 * complete before the packs they replace are removed; a crash in between leaves duplicates, never a
 * loss. Best effort: nothing here fails scoring.
 */
export function compactPacks(dir: string): void {
  const names = listDir(dir);
  // What a merge killed mid-way left behind (only its own process could still finish it).
  for (const n of names) {
    const pid = /\.(?:pack|idx)\.tmp-(\d+)$/.exec(n)?.[1];
    if (pid !== undefined && gone(Number(pid))) rmSync(join(dir, n), { force: true });
  }
  const packs = packNames(names)
    .map((name) => join(dir, name))
    .filter(finished);
  const sized = packs.map((pack) => ({ pack, indexed: hasIndex(pack), size: size(pack) }));
  const loose = sized.filter((p) => !p.indexed);
  if (loose.length <= COMPACT_AT) return;
  let total = loose.reduce((n, p) => n + p.size, 0);
  const merge = [...loose];
  for (const p of sized.filter((s) => s.indexed).sort((a, b) => a.size - b.size)) {
    if (p.size > total) break;
    merge.push(p);
    total += p.size;
  }
  // Oldest first, so a newer answer to the same key (they never differ in practice) is the one kept.
  const inputs = merge.map((p) => p.pack).sort((a, b) => byStamp(basename(a), basename(b)));
  writeMerged(dir, inputs);
  for (const pack of inputs) {
    rmSync(indexPathOf(pack), { force: true });
    rmSync(pack, { force: true });
  }
}

/** Copies the newest readable entry of each key into a new pack, one at a time, then writes its index. */
function writeMerged(dir: string, inputs: readonly string[]): void {
  const locations = new Map<string, EntryLocation>();
  for (const pack of inputs) for (const [key, loc] of packLocations(pack)) locations.set(key, loc);
  const name = `c-${newPackName()}`;
  const base = join(dir, name.slice(0, -'.pack'.length));
  // Temp names end in neither `.pack` nor `.idx`: no reader takes a half-written merge for a pack.
  const tmpPack = `${base}.pack.tmp-${process.pid}`;
  const tmpIdx = `${base}.idx.tmp-${process.pid}`;
  const index: string[] = [];
  let offset = 0;
  try {
    const fd = openSync(tmpPack, 'wx', 0o644);
    try {
      for (const [key, loc] of locations) {
        const json = readEntry(loc, key);
        if (json === undefined) continue;
        const line = Buffer.from(`${key} ${json}\n`, 'utf8');
        writeAll(fd, line);
        index.push(`${key} ${offset + 65} ${line.length - 66}`);
        offset += line.length;
      }
    } finally {
      closeSync(fd);
    }
    writeFileSync(tmpIdx, [`${INDEX_HEADER} ${offset}`, ...index, ''].join('\n'), {
      encoding: 'latin1',
      flag: 'wx',
      mode: 0o644,
    });
    renameSync(tmpPack, `${base}.pack`);
    renameSync(tmpIdx, `${base}.idx`);
  } catch (err) {
    rmSync(tmpPack, { force: true });
    rmSync(tmpIdx, { force: true });
    throw err;
  }
}

/** Not being written: its owner process is gone, or it is this process's and closed. */
function finished(pack: string): boolean {
  if (openPacks.has(pack)) return false;
  const pid = Number(/-(\d+)-[0-9a-z]+\.pack$/.exec(pack)?.[1]);
  return !Number.isInteger(pid) || pid <= 0 || pid === process.pid || gone(pid);
}

/** Whether no process has this pid (this process counts as present). */
function gone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Whether the pack has an index whose header matches it (the header alone is read). */
function hasIndex(pack: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(indexPathOf(pack), 'r');
    const buf = Buffer.alloc(64);
    const head = buf.toString('latin1', 0, readSync(fd, buf, 0, 64, 0)).split('\n')[0]!;
    return head === `${INDEX_HEADER} ${size(pack)}`;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
