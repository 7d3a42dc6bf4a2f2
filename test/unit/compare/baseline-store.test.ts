import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBaseline } from '../../../src/compare/baseline-store.js';

const dir = mkdtempSync(join(tmpdir(), 'axis-baseline-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('baseline store', () => {
  it('a baseline is the file it was read from: a copied main.json read as v1.0 says v1.0', async () => {
    mkdirSync(join(dir, '.axis/baselines'), { recursive: true });
    const doc = { name: 'main', createdAt: '', updatedAt: '', results: {} };
    writeFileSync(join(dir, '.axis/baselines/v1.0.json'), JSON.stringify(doc));
    expect((await readBaseline(dir, 'v1.0'))!.name).toBe('v1.0');
  });
});
