import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  claimReportDir,
  compareReportIds,
  formatReportId,
  isReportId,
  sortReportIds,
} from '../../../src/report/ids.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

describe('report ids', () => {
  it('formats the UTC start time as YYYY-MM-DD-HHMMSS', () => {
    expect(formatReportId(new Date('2026-04-15T14:30:22.900Z'))).toBe('2026-04-15-143022');
    expect(formatReportId(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02-030405');
  });

  it('recognises ids with and without a suffix', () => {
    expect(isReportId('2026-04-15-143022')).toBe(true);
    expect(isReportId('2026-04-15-143022-12')).toBe(true);
    expect(isReportId('latest')).toBe(false);
    expect(isReportId('2026-04-15-1430')).toBe(false);
  });

  it('sorts same-second suffixes numerically after the plain id', () => {
    const ids = [
      '2026-04-15-143022-10',
      '2026-04-15-143022-2',
      '2026-04-16-000000',
      '2026-04-15-143022',
      'x',
      '2026-04-15-143022-9',
    ];
    expect(sortReportIds(ids)).toEqual([
      '2026-04-15-143022',
      '2026-04-15-143022-2',
      '2026-04-15-143022-9',
      '2026-04-15-143022-10',
      '2026-04-16-000000',
    ]);
    expect(compareReportIds('2026-04-15-143022-2', '2026-04-15-143022')).toBeGreaterThan(0);
  });

  it('runs started in the same second claim distinct directories, even concurrently', async () => {
    const root = join(tempDir('axis-ids-'), 'reports');
    const at = new Date('2026-04-15T14:30:22Z');
    const ids = await Promise.all(Array.from({ length: 6 }, () => claimReportDir(root, at)));
    expect(new Set(ids).size).toBe(6);
    expect(sortReportIds(ids)).toEqual([
      '2026-04-15-143022',
      '2026-04-15-143022-2',
      '2026-04-15-143022-3',
      '2026-04-15-143022-4',
      '2026-04-15-143022-5',
      '2026-04-15-143022-6',
    ]);
    expect(readdirSync(root).sort()).toEqual([...ids].sort());
  });
});
