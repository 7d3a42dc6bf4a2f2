/** Repeatable pseudo-random numbers in [0, 1) for property-style tests (a linear congruential generator). */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A string of `minPieces` to `maxPieces - 1` pieces, each picked from `pieces`. */
export function randomText(
  rand: () => number,
  pieces: readonly string[],
  maxPieces: number,
  minPieces = 0,
): string {
  const n = minPieces + Math.floor(rand() * (maxPieces - minPieces));
  return Array.from({ length: n }, () => pieces[Math.floor(rand() * pieces.length)]).join('');
}
