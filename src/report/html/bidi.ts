/**
 * Bidi controls in untrusted text. An embedding, override or isolate the text opens and never closes
 * (a right-to-left override, U+202E, in an agent's output) goes on past the text's end, over whatever
 * the page writes after it in the same line: a report id or "It counts against reliability" would be
 * drawn mirrored. Closing them at the end of each text keeps its effect inside it.
 */

const PDF = '\u202c';
const PDI = '\u2069';
const ANY = /[\u202a-\u202e\u2066-\u2069]/;

/** `s` with a closer appended for every embedding, override or isolate it leaves open. */
export function closeBidi(s: string): string {
  if (!ANY.test(s)) return s;
  const open: string[] = [];
  for (const c of s) {
    if (c === '\u202a' || c === '\u202b' || c === '\u202d' || c === '\u202e') open.push(PDF);
    else if (c === '\u2066' || c === '\u2067' || c === '\u2068') open.push(PDI);
    else if (c === PDF && open[open.length - 1] === PDF) open.pop();
    else if (c === PDI && open.includes(PDI)) open.length = open.lastIndexOf(PDI); // closes what it holds too
  }
  return open.length === 0 ? s : s + open.reverse().join('');
}

/**
 * Every string in `value` (objects and arrays, in place) closed by closeBidi. A value is written back
 * only when closing changed it: almost none do, and storing every property of a 20 MB run's page data
 * back into its 100,000 objects of many shapes (megamorphic keyed stores) was 80–130 ms of a cold walk
 * that takes 30 without them. for…in: the page data is plain objects built by map.ts, with nothing
 * enumerable inherited.
 */
export function closeBidiDeep<T>(value: T): T {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const closed = closeDeep(v);
      if (closed !== v) value[i] = closed;
    }
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key in obj) {
      const v = obj[key];
      const closed = closeDeep(v);
      if (closed !== v) obj[key] = closed;
    }
  }
  return value;
}

function closeDeep(v: unknown): unknown {
  return typeof v === 'string' ? closeBidi(v) : closeBidiDeep(v);
}

/**
 * Whether UTF-8 bytes arriving in pieces hold a control closeBidi closes (U+202A–U+202E are E2 80 AA–AE,
 * U+2066–U+2069 are E2 81 A6–A9), one cut across two pieces included. JSON keeps them as they are (it
 * escapes neither), so the serialized page data shows whether any text needs closing: almost none does,
 * and one search of the bytes for 0xE2 replaces a walk over every string of the data.
 */
export function bidiByteScanner(): (bytes: Uint8Array) => boolean {
  // The stream's last two bytes so far: a control may start in them and end in the next piece.
  let carry = new Uint8Array(0);
  return (bytes) => {
    if (carry.length > 0) {
      const seam = new Uint8Array(carry.length + Math.min(2, bytes.length));
      seam.set(carry);
      seam.set(bytes.subarray(0, 2), carry.length);
      if (hasBidiBytes(seam)) return true;
      if (bytes.length < 2) {
        carry = seam.slice(Math.max(0, seam.length - 2));
        return false;
      }
    }
    if (hasBidiBytes(bytes)) return true;
    carry = bytes.slice(Math.max(0, bytes.length - 2)); // a copy: the piece's buffer is reused
    return false;
  };
}

function hasBidiBytes(b: Uint8Array): boolean {
  for (let i = b.indexOf(0xe2); i !== -1 && i + 2 < b.length; i = b.indexOf(0xe2, i + 1)) {
    const second = b[i + 1];
    const third = b[i + 2]!;
    if (second === 0x80 && third >= 0xaa && third <= 0xae) return true;
    if (second === 0x81 && third >= 0xa6 && third <= 0xa9) return true;
  }
  return false;
}
