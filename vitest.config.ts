import { defineConfig } from 'vitest/config';
import SlowestFirst from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Real agent CLIs start slowly on 2 cores; e2e tests set their own, longer timeouts.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The real-CLI files first, so the end of a run is short files on both workers (test/sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    maxWorkers: 2,
  },
});
