/**
 * The I/O edge of the HTML report. `axis run` renders it from the manifest and results it holds in memory;
 * `axis reports --html` and `axis score` read report.json and each run's detail file. Either way only
 * the captured files to embed are read from the report directory.
 */
import { basename, dirname, join } from 'node:path';
import { buildTrend, HISTORY_LIMIT } from '../history.js';
import { readStoredHistory, writeTrendCache, writtenCacheEntry } from '../history-read.js';
import type { HistoryManifest } from '../history.js';
import { isReportId } from '../ids.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { cannotWrite } from '../../util/write-error.js';
import { confinedPath, readStoreBytes, readStoreJson } from '../confine.js';
import { parseManifest } from '../manifest.js';
import { DETAIL_SHAPE, shapeProblem } from '../manifest-shape.js';
import {
  artifactRefusal,
  hasNotes,
  MAP_DEFAULTS,
  toHtmlReportData,
  type ArtifactInput,
  type ManifestInput,
  type MapOptions,
  type RunInput,
} from './map.js';
import { renderReportHtmlStreamed } from './render.js';

export interface ReportInputs {
  manifest: ManifestInput;
  /** Per pair, its runs' detail objects in run order (empty when none could be read). */
  details: RunInput[][];
  /** `manifest` exactly as report.json holds it (scrubbed), when the caller has it: kept for the trend cache. */
  written?: HistoryManifest;
}

/** Renders `<reportDir>/report.html` from the files in the report directory and returns its path. */
export async function writeReportHtml(reportDir: string, options: MapOptions = {}): Promise<string> {
  const path = join(reportDir, 'report.html');
  const html = await renderReportHtmlFrom(reportDir, await readReportInputs(reportDir), options);
  await writeFileAtomic(path, html).catch((err: unknown) => {
    throw cannotWrite(path, err);
  });
  return path;
}

/**
 * The page for data already in memory (`axis run` passes its final manifest and results): only the
 * captured files to embed are read from `reportDir`. `inputs` is not modified.
 */
export async function renderReportHtmlFrom(
  reportDir: string,
  inputs: ReportInputs,
  options: MapOptions = {},
): Promise<string> {
  const opts = { ...MAP_DEFAULTS, ...options };
  const budget = { artifactBytes: opts.maxTotalArtifactBytes };
  const details: RunInput[][] = [];
  for (const runs of inputs.details) {
    const withFiles: RunInput[] = [];
    for (const run of runs) {
      const dir = run.files?.artifactsDir;
      withFiles.push(
        run.artifacts
          ? { ...run, artifacts: await readArtifacts(reportDir, dir, run.artifacts, opts, budget) }
          : run,
      );
    }
    details.push(withFiles);
  }
  // marked (about 7 ms to load) only for a report with notes: map-notes.ts.
  const renderNotes = hasNotes(inputs.manifest, details)
    ? (await import('./markdown.js')).renderNotesMarkdown
    : undefined;
  return renderReportHtmlStreamed(
    toHtmlReportData(
      inputs.manifest,
      details,
      options,
      await trendOf(reportDir, inputs.manifest, inputs.written),
      renderNotes,
    ),
  );
}

/**
 * The trend chart's data: this report and the stored ones before it in the same reports folder (at
 * most HISTORY_LIMIT report.json files are read, so a big store does not slow the page down).
 */
async function trendOf(reportDir: string, manifest: ManifestInput, written?: HistoryManifest) {
  // The folder name is the report's id (as for every store reader), whatever report.json says. A
  // folder not named like a report is not in a store: its siblings are not reports.
  const id = basename(reportDir);
  const current = { ...manifest, reportId: id };
  const stored = isReportId(id)
    ? await readStoredHistory(dirname(reportDir), { limit: HISTORY_LIMIT, current })
    : { manifests: [current], olderNotShown: 0, cacheMisses: [], ids: undefined };
  // A cache the next page reads instead of the big report.json files; the page never depends on it,
  // so a failed write does not fail the run, but it is said (never silent).
  const entries = [...stored.cacheMisses];
  const own = written && isReportId(id) ? await writtenCacheEntry(reportDir, written) : null;
  if (own) entries.push(own);
  await writeTrendCache(dirname(reportDir), entries, stored.ids).catch((err: unknown) => {
    const why = err instanceof Error ? err.message : String(err);
    process.stderr.write(
      `axis: warning: could not write the trend cache (${why}); report.html is complete, the next one reads report.json files instead\n`,
    );
  });
  const pairs = manifest.results.map((r) => ({ scenarioKey: r.scenarioKey, agentName: r.agentName }));
  return buildTrend(stored.manifests, pairs, HISTORY_LIMIT, stored.olderNotShown);
}

/** report.json and each run's detail file (artifact bytes are read when rendering). */
export async function readReportInputs(reportDir: string): Promise<ReportInputs> {
  const manifestPath = join(reportDir, 'report.json');
  const manifest = readStoreJson(manifestPath, manifestPath) as ManifestInput;
  parseManifest(manifest, manifestPath, basename(reportDir)); // its shape: a StoreDataError names the field
  const details: RunInput[][] = [];
  for (const entry of manifest.results) {
    const runs: RunInput[] = [];
    for (const summary of entry.runs ?? []) {
      const detail = readDetail(reportDir, summary.files?.detail);
      // A run whose detail file is missing or unreadable still shows its summary (status, numbers).
      if (!detail || typeof detail !== 'object') {
        // A run summary does not repeat the pair's `simulated`: without it the page showed no cost at all.
        const run = entry.simulated ? { simulated: true, ...summary } : summary;
        runs.push(
          summary.run === entry.representativeRun && entry.score ? { ...run, score: entry.score } : run,
        );
        continue;
      }
      runs.push(detail);
    }
    details.push(runs);
  }
  return { manifest, details };
}

async function readArtifacts(
  reportDir: string,
  dir: string | undefined,
  list: readonly ArtifactInput[],
  opts: Required<MapOptions>,
  budget: { artifactBytes: number },
): Promise<ArtifactInput[]> {
  const out: ArtifactInput[] = [];
  const base = dir === undefined ? undefined : confinedOrNull(reportDir, dir);
  for (const a of list) {
    if (a.skipped) {
      out.push(a);
      continue;
    }
    const refused = artifactRefusal(a.size, opts, budget);
    if (refused || !dir) {
      out.push({ ...a, omitted: refused ?? 'the run recorded no artifacts folder' });
      continue;
    }
    const file = base && confinedOrNull(base, a.path);
    if (!file) {
      out.push({ ...a, omitted: `path outside the ${base ? 'artifacts' : 'report'} folder` });
      continue;
    }
    const content = readStoreBytes(file);
    if (!content) {
      out.push({ ...a, omitted: 'file missing from the report folder' });
      continue;
    }
    budget.artifactBytes -= content.byteLength;
    out.push({ ...a, content });
  }
  return out;
}

/** `rel` under `base`, or null when it would lead out of it (`..`, absolute, a symlink out). */
function confinedOrNull(base: string, rel: string): string | null {
  try {
    return confinedPath(base, rel, rel);
  } catch {
    return null;
  }
}

/** A run's detail object, or null when its path is not confined to the report folder or the file is unusable. */
function readDetail(reportDir: string, rel: unknown): RunInput | null {
  if (rel === undefined) return null;
  try {
    const detail = readStoreJson(confinedPath(reportDir, rel, 'detail'), String(rel));
    const usable = detail && typeof detail === 'object' && !Array.isArray(detail);
    // One of the wrong shape shows its summary, as a missing one does (`axis reports <id> <key>` names it).
    return usable && !shapeProblem(detail, DETAIL_SHAPE, '') ? (detail as RunInput) : null;
  } catch {
    return null;
  }
}
