/**
 * Megabyte buffers for the big writes (detail file, report.json, raw lines, report.html), handed back
 * once their bytes are on disk and handed out again. A fresh buffer is fresh memory: on the VMs AXIS is
 * measured on, the first touch of a page costs ~10 µs (2.7 ms a megabyte), and a 20 MB run wrote about
 * 60 MB through buffers that were each used once (the detail file alone: 316 → 175 ms to write with the
 * memory already touched; docs/performance.md, "Fresh memory"). V8 frees a Buffer's memory only after
 * a collection finds it dead, so without the pool nearly every chunk was new memory.
 *
 * Only buffers this module made come back (a WeakSet of their ArrayBuffers), and only the writer that
 * owns a chunk may give it back, after its last use: whoever took a buffer out of the pool owns it.
 */

/** The size of a pooled buffer. */
export const POOL_BUFFER_BYTES = 1 << 20;
/** Buffers kept for reuse at most (memory held for the process's life: 4 MB). */
const KEEP = 4;

const free: Buffer[] = [];
const ours = new WeakSet<ArrayBuffer | SharedArrayBuffer>();

/** A buffer of POOL_BUFFER_BYTES, from the pool when one is there. Its contents are arbitrary. */
export function takeBuffer(): Buffer {
  const reused = free.pop();
  if (reused) return reused;
  // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared pool.
  const buf = Buffer.allocUnsafeSlow(POOL_BUFFER_BYTES);
  ours.add(buf.buffer);
  return buf;
}

/**
 * Gives back the pool buffer under `view` (a view of one that `takeBuffer` made); anything else is left
 * to the garbage collector. The caller must not use the buffer, or any view of it, afterwards.
 */
export function giveBuffer(view: Buffer): void {
  if (!ours.has(view.buffer) || free.length >= KEEP) return;
  // Given twice (a caller's bug) it would be handed out to two writers at once.
  if (free.some((b) => b.buffer === view.buffer)) return;
  free.push(Buffer.from(view.buffer, 0, POOL_BUFFER_BYTES));
}

/** Buffers waiting in the pool (tests). */
export function pooledBuffers(): number {
  return free.length;
}
