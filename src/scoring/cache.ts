/**
 * The judge cache under `<configDir>/.axis/cache/judge/`: answers keyed by the judge's identity
 * (provider, model, endpoint), the full prompt and the answer schema, stored in pack files
 * (cache-pack.ts). Re-scoring an unchanged run asks no judge at all. Only answers that passed validation
 * are stored.
 */
import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  compactPacks,
  newPackName,
  PackWriter,
  readEntry,
  readListing,
  type CacheListing,
  type EntryLocation,
} from './cache-pack.js';
import type { JudgeMessage, JudgeTokens } from './judges/types.js';
import { flushAtExit, flushedNow } from '../util/exit-flush.js';

export const CACHE_VERSION = 1;
/**
 * Answers stored within this long of each other go to the pack in one write. A short scored job stores
 * two answers; one `write` (and a check that the pack still exists) each was about 0.15 ms of the main
 * thread per job on the VMs AXIS is measured on. A killed run loses at most this much of its answers
 * (a cache miss later, never a wrong answer); any other exit writes them (see {@link JudgeCache.flush}).
 */
export const FLUSH_AFTER_MS = 100;
/** Pending answers of more than this many characters are written at once. */
const FLUSH_AT_UNITS = 1024 * 1024;

/** Hash states of key heads (judge identity and system prompt), see JudgeCache.key. */
const heads = new Map<string, Hash>();

export interface CachedAnswer {
  version: number;
  /** The validated answer text. */
  text: string;
  model: string;
  /** What the original call cost (a cache hit costs nothing). */
  usage: JudgeTokens;
  costUsd?: number;
  createdAt: string;
}

export interface CacheKeyParts {
  cacheId: string;
  system: string;
  messages: readonly JudgeMessage[];
  /** JSON Schema of the expected answer (changes when the schema changes). */
  schema: unknown;
}

export class JudgeCache {
  /** Where the answers this instance stored are (kept apart: the packs' locations are read lazily). */
  private readonly own = new Map<string, EntryLocation>();
  /** Answers stored but not yet in the pack (key → entry JSON), written by {@link flush}. */
  private readonly pending = new Map<string, string>();
  private pendingUnits = 0;
  private timer: NodeJS.Timeout | undefined;
  private listing: CacheListing | undefined;
  private writer: PackWriter | undefined;

  /**
   * `dir` null: a disabled cache (every get misses, set does nothing). `scrub` masks the secrets in an
   * entry's JSON before it is stored: an answer may quote a key (an echoing proxy, a judge agent).
   */
  constructor(
    readonly dir: string | null,
    private readonly scrub: (json: string) => string = (json) => json,
  ) {}

  static forConfigDir(configDir: string, enabled = true, scrub?: (json: string) => string): JudgeCache {
    return new JudgeCache(enabled ? judgeCacheDir(configDir) : null, scrub);
  }

  get enabled(): boolean {
    return this.dir !== null;
  }

  /**
   * sha256 of `JSON.stringify([CACHE_VERSION, cacheId, system, messages, schema])`. The head (version,
   * judge, system prompt: the same for every question of a run) is hashed once and the hash state
   * copied per key, so only the question's own text is serialized and hashed each time.
   */
  key(parts: CacheKeyParts): string {
    const head = `${parts.cacheId}\u0000${parts.system}`;
    let h = heads.get(head);
    if (!h) {
      h = createHash('sha256').update(
        `[${CACHE_VERSION},${JSON.stringify(parts.cacheId)},${JSON.stringify(parts.system)},`,
      );
      if (heads.size >= 16) heads.clear();
      heads.set(head, h);
    }
    // Updated piece by piece (the same bytes as their concatenation): the joined text was a flattened
    // copy of the whole question per key.
    return h
      .copy()
      .update(JSON.stringify(parts.messages))
      .update(`,${JSON.stringify(parts.schema) ?? 'null'}]`)
      .digest('hex');
  }

  /**
   * The stored answer, if any. Synchronous file calls (util/small-write.ts): the packs' locations are
   * read once, at the first lookup; an answer is then one small read.
   */
  async get(key: string): Promise<CachedAnswer | undefined> {
    if (this.dir === null) return undefined;
    const waiting = this.pending.get(key);
    if (waiting !== undefined) return parseEntry(waiting);
    let loc = this.own.get(key);
    if (!loc) {
      this.listing ??= readListing(this.dir);
      loc = this.listing.locations.get(key);
    }
    // Before packs, each answer was a file of its own: those caches still answer.
    const text = loc
      ? readEntry(loc, key)
      : this.listing?.legacy.has(key)
        ? readLegacy(join(this.dir, `${key}.json`))
        : undefined;
    return text === undefined ? undefined : parseEntry(text);
  }

  /**
   * Best effort: a cache that cannot be written never fails scoring. The answer is found by `get` at
   * once and reaches the pack within {@link FLUSH_AFTER_MS}, with the answers stored around it.
   */
  async set(key: string, value: Omit<CachedAnswer, 'version' | 'createdAt'>): Promise<void> {
    if (this.dir === null) return;
    const entry: CachedAnswer = { version: CACHE_VERSION, ...value, createdAt: new Date().toISOString() };
    const json = this.scrub(JSON.stringify(entry));
    this.pending.set(key, json);
    this.pendingUnits += json.length;
    if (this.pendingUnits > FLUSH_AT_UNITS) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_AFTER_MS).unref();
      flushAtExit(this);
    }
  }

  /** Writes the answers stored since the last write to this instance's pack (one write). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    flushedNow(this);
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.pending.clear();
    this.pendingUnits = 0;
    try {
      const locs = this.packWriter().appendAll(entries);
      for (let i = 0; i < entries.length; i++) this.own.set(entries[i]![0], locs[i]!);
    } catch {
      // not stored: a later run asks again
    }
  }

  /**
   * Ends this instance's pack and, when enough finished packs have piled up, merges them. Called at the
   * end of `axis run` and `axis score`; a process that never calls it leaves a complete pack all the
   * same (merged by a later one).
   */
  close(): void {
    this.flush();
    const w = this.writer;
    this.writer = undefined;
    if (!w) return;
    try {
      w.close();
      compactPacks(this.dir!);
    } catch {
      // best effort: the packs stay as they are
    }
  }

  /** This instance's pack, opened at the first answer, and again if the cache was removed meanwhile. */
  private packWriter(): PackWriter {
    if (this.writer?.alive) return this.writer;
    this.writer?.close();
    this.writer = undefined;
    mkdirSync(this.dir!, { recursive: true });
    this.writer = new PackWriter(join(this.dir!, newPackName()));
    return this.writer;
  }
}

/** The entry, only when every field is what AXIS writes: its model is copied into the report. */
function parseEntry(text: string): CachedAnswer | undefined {
  let v: Partial<CachedAnswer> | null;
  try {
    v = JSON.parse(text) as Partial<CachedAnswer> | null;
  } catch {
    return undefined;
  }
  const ok =
    typeof v === 'object' &&
    v !== null &&
    v.version === CACHE_VERSION &&
    typeof v.text === 'string' &&
    typeof v.model === 'string' &&
    count(v.usage?.input) &&
    count(v.usage?.output) &&
    (v.costUsd === undefined || count(v.costUsd));
  return ok ? (v as CachedAnswer) : undefined;
}

function count(n: unknown): boolean {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

function readLegacy(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function judgeCacheDir(configDir: string): string {
  return join(configDir, '.axis', 'cache', 'judge');
}
