import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, test } from 'vitest';
import { BLOB_VERSION, parseBlobManifest, type BlobManifest } from '../../../../src/report/blob/format.js';
import { writeBlob } from '../../../../src/report/blob/pack.js';
import { readBlob, unsafeEntryName } from '../../../../src/report/blob/unpack.js';
import { AxisError } from '../../../../src/util/errors.js';
import { removeTempDirs, tempDir } from '../../run/helpers.js';

afterAll(removeTempDirs);

const manifest: BlobManifest = {
  format: 'axis-blob',
  version: BLOB_VERSION,
  axisVersion: '0.1.0',
  reportVersion: '1.0',
  configHash: 'a'.repeat(64),
  splitHash: 'b'.repeat(16),
  weighted: false,
  shard: { index: 2, total: 12 },
  planJobs: 3,
  jobs: [{ scenarioKey: 's', agentName: 'a', run: 1, index: 0 }],
  reportId: '2026-12-01-101010',
  createdAt: '2026-12-01T10:10:10.000Z',
};

async function errorOf(p: Promise<unknown>): Promise<AxisError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AxisError);
    return err as AxisError;
  }
  throw new Error('expected an AxisError');
}

describe('writeBlob', () => {
  test('stores the manifest and the regular files of the report; never report.html, temp files or symlinks', async () => {
    const dir = tempDir('axis-blob-src-');
    mkdirSync(join(dir, 'scenarios/s/a/artifacts'), { recursive: true });
    writeFileSync(join(dir, 'report.json'), '{}');
    writeFileSync(join(dir, 'report.html'), '<html>');
    writeFileSync(join(dir, 'scenarios/s/a.json'), '{"x":1}');
    writeFileSync(join(dir, 'scenarios/s/a.json.tmp-123-abc'), 'partial');
    writeFileSync(join(dir, 'scenarios/s/a/artifacts/out.txt'), 'hi');
    symlinkSync('/etc/passwd', join(dir, 'scenarios/s/a/artifacts/passwd'));
    symlinkSync(join(dir, 'scenarios'), join(dir, 'loop'));
    const out = tempDir('axis-blob-out-');
    const packed = await writeBlob(dir, manifest, out);
    expect(packed.path).toBe(join(out, 'axis-blob-02-of-12.zip'));
    const files = unzipSync(readFileSync(packed.path));
    expect(Object.keys(files)).toEqual([
      'axis-blob.json',
      'report/report.json',
      'report/scenarios/s/a.json',
      'report/scenarios/s/a/artifacts/out.txt',
    ]);
    expect(JSON.parse(Buffer.from(files['axis-blob.json']!).toString())).toEqual(manifest);
  });
});

describe('parseBlobManifest', () => {
  test('names the blob and the field; refuses newer formats and non-blobs', () => {
    expect(parseBlobManifest(JSON.stringify(manifest), 'b.zip')).toEqual(manifest);
    expect(() => parseBlobManifest('{', 'b.zip')).toThrow(/^b\.zip: axis-blob\.json is not valid JSON/);
    expect(() => parseBlobManifest('{"format":"zip"}', 'b.zip')).toThrow('b.zip: not an AXIS blob');
    expect(() =>
      parseBlobManifest(JSON.stringify({ ...manifest, version: BLOB_VERSION + 1 }), 'b.zip'),
    ).toThrow(`blob format version ${BLOB_VERSION + 1} is newer than this AXIS reads (${BLOB_VERSION})`);
    expect(() => parseBlobManifest(JSON.stringify({ ...manifest, configHash: 'x' }), 'b.zip')).toThrow(
      /^b\.zip: axis-blob\.json: configHash: /,
    );
    expect(() =>
      parseBlobManifest(JSON.stringify({ ...manifest, shard: { index: 3, total: 2 } }), 'b.zip'),
    ).toThrow('shard 3/2 is not a shard');
  });
});

describe('readBlob: a blob is untrusted', () => {
  test.each([
    ['/etc/passwd', 'an absolute path'],
    ['C:/x', 'an absolute path'],
    ['report/../../x', '".."'],
    ['report/./x', '"."'],
    ['report//x', 'an empty'],
    ['report\\x', 'a backslash'],
    ['report/x\u0000y', 'a control character'],
    ['', 'an empty or over-long name'],
  ])('%j is refused (%s)', (name, why) => {
    expect(unsafeEntryName(name)).toContain(why);
  });

  test('plain relative names pass', () => {
    expect(unsafeEntryName('report/scenarios/cms/post@v2/claude-code|opus.run-1.json')).toBeNull();
    expect(unsafeEntryName('report/scenarios/a..b/x')).toBeNull();
  });

  test('sizes are counted as the data is inflated, whatever the zip header claims', async () => {
    const dir = tempDir('axis-blob-bomb-');
    const zip = zipSync({ 'big.bin': new Uint8Array(4 * 1024 * 1024) }, { level: 9 });
    // The local header's uncompressed size (offset 22) now claims 16 bytes.
    Buffer.from(zip.buffer, zip.byteOffset).writeUInt32LE(16, 22);
    const file = join(dir, 'axis-blob-1-of-1.zip');
    writeFileSync(file, zip);
    const seen: string[] = [];
    const err = await errorOf(
      readBlob(file, {
        shown: 'bomb.zip',
        choose: () => ({ maxBytes: 1024 * 1024 }),
        onEntry: (name) => void seen.push(name),
      }),
    );
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('bomb.zip: entry "big.bin" is larger than 1048576 bytes');
    expect(seen).toEqual([]);
  });

  test('a truncated or foreign file is a clear error, not a crash', async () => {
    const dir = tempDir('axis-blob-bad-');
    const good = zipSync({ 'a.txt': Buffer.from('x'.repeat(10_000)) });
    writeFileSync(join(dir, 'cut.zip'), good.subarray(0, 60));
    writeFileSync(join(dir, 'text.zip'), 'hello');
    const cut = await errorOf(
      readBlob(join(dir, 'cut.zip'), {
        shown: 'cut.zip',
        choose: () => ({ maxBytes: 1e6 }),
        onEntry: () => {},
      }),
    );
    expect(cut.exitCode).toBe(2);
    expect(cut.message).toBe('cut.zip: not a readable zip (invalid zip data)');
    // A file with no zip entries at all reads as empty: the merge then says it is not a blob (no manifest).
    const entries: string[] = [];
    await readBlob(join(dir, 'text.zip'), {
      shown: 'text.zip',
      choose: () => ({ maxBytes: 1e6 }),
      onEntry: (n) => void entries.push(n),
    });
    expect(entries).toEqual([]);
    const missing = await errorOf(
      readBlob(join(dir, 'nope.zip'), { shown: 'nope.zip', choose: () => 'skip', onEntry: () => {} }),
    );
    expect(missing.message).toBe('Cannot read nope.zip: ENOENT');
  });
});
