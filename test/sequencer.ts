/**
 * Test files in an order that keeps both workers busy to the end: the files that run real agent CLIs
 * (test/e2e/sim, adapters, mcp: 20–90 s each) first, the other end-to-end files next, unit files last.
 * Within each group vitest's own order stands (the slowest first by its cache; on a fresh clone, as in
 * CI, the largest file first). Without this, a fresh clone started some of the slowest files last (a
 * small file of shared cases can run 40 s): one worker ran it alone while the other had nothing left.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST = /[\\/]test[\\/]e2e[\\/](?:sim|adapters|mcp)[\\/]/;
const E2E = /[\\/]test[\\/]e2e[\\/]/;

export function groupOf(moduleId: string): number {
  if (SLOWEST.test(moduleId)) return 0;
  return E2E.test(moduleId) ? 1 : 2;
}

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: each group keeps vitest's order.
    return sorted.sort((a, b) => groupOf(a.moduleId) - groupOf(b.moduleId));
  }
}
