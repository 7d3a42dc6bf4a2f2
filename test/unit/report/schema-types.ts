/**
 * Compile-time proof that the zod schemas and the writers' TypeScript types describe the same files:
 * `npx tsc -p tsconfig.json --noEmit` fails when a field is added, removed or retyped on one side only.
 * Nothing here runs.
 */
import type { ReportManifest } from '../../../src/report/manifest.js';
import type { ReportManifestFile, RunDetailFile } from '../../../src/report/schema.js';
import type { JobResult } from '../../../src/report/job-result.js';

type Detail = { reportId: string } & JobResult;

/** Every key required, at every depth, so an optional field present on one side only is a difference. */
type Keys<T> = T extends readonly (infer U)[]
  ? Keys<U>[]
  : T extends object
    ? { [K in keyof T]-?: Keys<NonNullable<T[K]>> }
    : T;

/** Both directions: every value of one type is a value of the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ManifestMatches = Assert<Same<ReportManifestFile, ReportManifest>>;
export type DetailMatches = Assert<Same<RunDetailFile, Detail>>;
export type ManifestKeysMatch = Assert<Same<Keys<ReportManifestFile>, Keys<ReportManifest>>>;
export type DetailKeysMatch = Assert<Same<Keys<RunDetailFile>, Keys<Detail>>>;
