/** `axis score`'s gate: report.json's verdict judged again on the new scores. */
import type { Baseline } from '../compare/baseline.js';
import { readBaseline } from '../compare/baseline-store.js';
import { gate } from '../compare/gate.js';
import type { LoadedConfig } from '../config/types.js';
import { oneLine } from '../report/format.js';
import type { ReportManifest } from '../report/manifest.js';

/**
 * The config's thresholds and, when the run was compared with a baseline, that baseline as it is now: a
 * verdict kept from the old scores could read `pass` over failing ones. A baseline since deleted (or
 * unreadable) leaves no verdict to trust, and that is said.
 */
export async function regate(
  loaded: LoadedConfig,
  manifest: ReportManifest,
  warn?: (message: string) => void,
): Promise<void> {
  const name = manifest.verdict?.baseline?.name;
  let baseline: Baseline | undefined;
  if (name !== undefined) {
    let why = 'is gone';
    try {
      baseline = await readBaseline(loaded.configDir, name);
    } catch (err) {
      why = `cannot be read (${oneLine((err as Error).message, 200)})`;
    }
    if (!baseline) {
      delete manifest.verdict;
      warn?.(
        `the run was compared with baseline "${oneLine(name, 64)}", which ${why}: report.json no longer holds a gate verdict (axis baseline compare gates the rescored report)`,
      );
      return;
    }
  }
  manifest.verdict = gate(manifest, loaded, loaded.scenarios, baseline).verdict;
}
