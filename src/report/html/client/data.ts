/** Reads the report data embedded in the page: base64 → raw deflate (fflate) → JSON. */
import type { HtmlReportData } from '../model.js';

/** fflate's browser build, inlined before this script. */
declare const fflate: {
  inflateSync(data: Uint8Array): Uint8Array;
  zipSync(files: Record<string, Uint8Array>, opts?: { level?: number }): Uint8Array;
};

export const DATA_SCHEMA = 1;

export function readReportData(id: string): HtmlReportData {
  const el = document.getElementById(id);
  if (!el) throw new Error('the report data is missing from this page');
  const bytes = fflate.inflateSync(base64ToBytes((el.textContent ?? '').trim()));
  const data = JSON.parse(new TextDecoder().decode(bytes)) as HtmlReportData;
  if (typeof data.schema !== 'number' || data.schema > DATA_SCHEMA)
    throw new Error(`this page cannot read report data of schema ${String(data.schema)}`);
  return data;
}

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function zipFiles(files: Record<string, Uint8Array>): Uint8Array {
  return fflate.zipSync(files, { level: 6 });
}

/** Offer bytes as a file download (a blob: URL, revoked once the click went through). */
export function downloadBytes(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(
    new Blob([bytes as BlobPart], { type: type || 'application/octet-stream' }),
  );
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
