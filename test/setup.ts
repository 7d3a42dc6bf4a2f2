/** Runs before every test file, in both vitest projects (vitest.config.ts). */
import { afterAll } from 'vitest';
import { removeTrackedTempDirs } from './helpers/temp-dirs.js';

afterAll(removeTrackedTempDirs);
