import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/sequencer.js';

/**
 * Unit files that change process-wide state (process.env left set, globalThis, the spawner and containment
 * singletons, process listeners, fake timers) run in a fresh process each, as every end-to-end file does.
 */
export const ISOLATED_UNIT = [
  'test/unit/exec/**/*.test.ts',
  'test/unit/config/jitless.test.ts',
  'test/unit/reporters/list-plain.test.ts',
  'test/unit/run/mcp-refs.test.ts',
  'test/unit/run/run.test.ts',
  'test/unit/runner/follow-pool.test.ts',
  'test/unit/runner/lifecycle.test.ts',
  'test/unit/transcript/api-notices.test.ts',
];

// The tests talk only to 127.0.0.1, yet a machine whose environment names an extra CA bundle makes every
// Node process the suite starts (each axis command, agent CLI, simulator and worker) read and parse that
// bundle first: about 40 ms of CPU per process on the 2-core machines here. A test that needs a CA names
// its own (http-client.test.ts). Set here, before any worker is forked, so every child inherits it.
delete process.env.NODE_EXTRA_CA_CERTS;
// Every axis command the suite starts shares one code cache (src/cli/code-cache.ts), as a user's do,
// including those a test gives a HOME of its own; one per run of the suite, so a stale one never matters.
process.env.AXIS_CODE_CACHE ??= join(tmpdir(), `axis-suite-code-cache-${process.pid}`);

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup.ts'],
    // Real agent CLIs start slowly on 2 cores; e2e tests set their own, longer timeouts.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The real-CLI files first, so the end of a run is short files on both workers (test/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ['test/e2e/**/*.test.ts', ...ISOLATED_UNIT] },
      },
      {
        // The other unit files share one module graph per worker: importing src/ once per worker rather
        // than once per file took the unit run from 117 s to 51 s on 2 cores.
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: ISOLATED_UNIT,
          isolate: false,
        },
      },
    ],
  },
});
