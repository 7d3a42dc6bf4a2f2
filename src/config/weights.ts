/**
 * Criterion weight resolution for one scenario (judge checks first, then deterministic checks):
 * explicit weights are kept, unweighted criteria share what is left equally, and explicit weights
 * that sum to less than 1 with nothing unweighted are scaled up proportionally.
 */
export const WEIGHT_TOLERANCE = 0.001;

export type WeightResult =
  { ok: true; weights: number[]; normalized: boolean } | { ok: false; message: string };

const fmt = (n: number) => String(Math.round(n * 1000) / 1000);

/** `where[i]` names criterion i in messages, e.g. `judge[0]` or `checks[2]`. */
export function resolveWeights(
  declared: readonly (number | undefined)[],
  where: readonly string[],
): WeightResult {
  if (declared.length === 0) {
    return {
      ok: false,
      message: 'expected at least one criterion (a judge check or a deterministic check), found none',
    };
  }
  let explicitSum = 0;
  const explicit: string[] = [];
  const unweighted: string[] = [];
  declared.forEach((w, i) => {
    if (w === undefined) unweighted.push(where[i] ?? `#${i}`);
    else {
      explicitSum += w;
      explicit.push(`${where[i] ?? `#${i}`} ${fmt(w)}`);
    }
  });
  if (explicitSum > 1 + WEIGHT_TOLERANCE) {
    return {
      ok: false,
      message: `expected criterion weights to sum to at most 1, found ${fmt(explicitSum)} (${explicit.join(' + ')})`,
    };
  }
  if (unweighted.length > 0) {
    const left = 1 - explicitSum;
    if (left <= WEIGHT_TOLERANCE) {
      return {
        ok: false,
        message:
          `explicit weights already sum to ${fmt(explicitSum)}, leaving nothing for ${unweighted.join(', ')}; ` +
          'give every criterion a weight or lower the explicit ones',
      };
    }
    const share = left / unweighted.length;
    return { ok: true, weights: declared.map((w) => w ?? share), normalized: false };
  }
  if (explicitSum <= 0) {
    return { ok: false, message: 'expected at least one criterion weight above 0, found all weights 0' };
  }
  if (Math.abs(explicitSum - 1) <= WEIGHT_TOLERANCE) {
    return { ok: true, weights: declared.map((w) => w ?? 0), normalized: false };
  }
  return { ok: true, weights: declared.map((w) => (w ?? 0) / explicitSum), normalized: true };
}
