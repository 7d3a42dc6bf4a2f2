/**
 * The judge cache: `<configDir>/.axis/cache/judge/<sha256>.json`, one file per answered question, keyed
 * by the judge's identity (provider, model, endpoint), the full prompt and the answer schema. Re-scoring
 * an unchanged run asks no judge at all. Only answers that passed validation are stored.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { JudgeMessage, JudgeTokens } from './judges/types.js';
import { writeFileBySize } from '../util/small-write.js';

export const CACHE_VERSION = 1;

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
  /** `dir` null: a disabled cache (every get misses, set does nothing). */
  constructor(readonly dir: string | null) {}

  static forConfigDir(configDir: string, enabled = true): JudgeCache {
    return new JudgeCache(enabled ? judgeCacheDir(configDir) : null);
  }

  get enabled(): boolean {
    return this.dir !== null;
  }

  key(parts: CacheKeyParts): string {
    const h = createHash('sha256');
    h.update(JSON.stringify([CACHE_VERSION, parts.cacheId, parts.system, parts.messages, parts.schema]));
    return h.digest('hex');
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    if (this.dir === null) return undefined;
    try {
      // Synchronous: usually a miss (one failed open), else one small file (util/small-write.ts).
      const v = JSON.parse(readFileSync(this.path(key), 'utf8')) as CachedAnswer;
      return v && v.version === CACHE_VERSION && typeof v.text === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }

  /** Best effort: a cache that cannot be written never fails scoring. */
  async set(key: string, value: Omit<CachedAnswer, 'version' | 'createdAt'>): Promise<void> {
    if (this.dir === null) return;
    const path = this.path(key);
    const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    const entry: CachedAnswer = { version: CACHE_VERSION, ...value, createdAt: new Date().toISOString() };
    const text = `${JSON.stringify(entry)}\n`;
    const write = () => writeFileBySize(tmp, text);
    try {
      await this.madeDir(dirname(path));
      try {
        await write();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        // The directory went away since it was made (someone cleared the cache): make it again.
        this.made = undefined;
        await this.madeDir(dirname(path));
        await write();
      }
      renameSync(tmp, path);
    } catch {
      await rm(tmp, { force: true }).catch(() => {});
    }
  }

  /** The cache directory, made once per process rather than once per answer (a short job stores two). */
  private made: Promise<void> | undefined;

  private madeDir(dir: string): Promise<void> {
    if (!this.made) {
      this.made = mkdir(dir, { recursive: true }).then(() => {});
      this.made.catch(() => (this.made = undefined));
    }
    return this.made;
  }

  private path(key: string): string {
    return join(this.dir!, `${key}.json`);
  }
}

export function judgeCacheDir(configDir: string): string {
  return join(configDir, '.axis', 'cache', 'judge');
}
