/**
 * Caps on what one blob may hold. A blob is untrusted input to `axis reports merge` (it comes from another
 * machine, an artifact store, a download): these bound the disk and memory a merge can be made to use.
 * A run's own files are already bounded far below them (artifacts: 25 MiB per run by default).
 */
export const MAX_BLOB_ENTRIES = 200_000;
/** One file, decompressed. */
export const MAX_ENTRY_BYTES = 512 * 1024 * 1024;
/** All files of one blob, decompressed. */
export const MAX_TOTAL_BYTES = 8 * 1024 * 1024 * 1024;
/** The manifest (and each report.json / per-run detail file is parsed in memory, so they share a cap). */
export const MAX_JSON_BYTES = 256 * 1024 * 1024;
