/**
 * `axis badge`: a shields-style SVG of a report's AXIS Result. Drawn by hand: two rectangles and two
 * labels, no library needed; text is XML-escaped and widths come from a per-character estimate.
 */

export interface BadgeInput {
  label?: string;
  /** 0–100, or null when nothing was scored. */
  score: number | null;
  /** Pairs where no run completed: the average leaves them out, so the badge names them. */
  failed?: number;
  /** The run did not finish (Ctrl-C, a token limit): the pairs that ran alone would flatter it. */
  incomplete?: boolean;
  /** A shard's own report (`axis run --shard`): part of a run's jobs, so its score is not the run's. */
  shard?: { index: number; total: number };
  /**
   * The CI gate's stored verdict: `fail` is red (`gate fail`) whatever the score, null (none stored) is
   * grey (`gate unknown`); undefined draws the score alone.
   */
  gate?: 'pass' | 'fail' | null;
}

/**
 * The colour band of a score (ties go down: 89.5 rounds to 90 only in the text, not the colour). Any
 * failed pair is red, as it fails the gate: the scored pairs' average alone would flatter.
 */
export function badgeColor(score: number | null, failed = 0): string {
  if (failed > 0) return '#e05d44';
  if (score === null) return '#9f9f9f';
  if (score >= 90) return '#4c1';
  if (score >= 75) return '#97ca00';
  if (score >= 50) return '#dfb317';
  return '#e05d44';
}

/** Verdana 11px averages about 6.5 px per character; the badge pads 10 px per side. */
const textWidth = (s: string) => Math.round(s.length * 6.5) + 10;

export function badgeSvg(input: BadgeInput): string {
  const label = input.label ?? 'AXIS';
  const failed = input.failed ?? 0;
  const score = input.score === null ? 'n/a' : `${Math.floor(input.score)}/100`;
  // An incomplete run, or a part of one, fails the gate as a failed pair does: the same red.
  const partial = input.incomplete || input.shard !== undefined;
  // Those already say the gate failed; else a green score must not pass for a passed gate.
  const gate = failed > 0 || partial || input.gate === undefined ? undefined : input.gate;
  const value = [
    score,
    ...(failed > 0 ? [`${failed} failed`] : []),
    ...(input.incomplete ? ['incomplete'] : []),
    ...(input.shard ? [`shard ${input.shard.index}/${input.shard.total}`] : []),
    ...(gate === 'fail' ? ['gate fail'] : gate === null ? ['gate unknown'] : []),
  ].join(' · ');
  const colour =
    gate === null ? '#9f9f9f' : badgeColor(input.score, partial || gate === 'fail' ? failed + 1 : failed);
  const lw = textWidth(label);
  const vw = textWidth(value);
  const w = lw + vw;
  const l = escapeXml(label);
  const v = escapeXml(value);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${l}: ${v}">`,
    `  <title>${l}: ${v}</title>`,
    `  <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`,
    `  <clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `  <g clip-path="url(#r)">`,
    `    <rect width="${lw}" height="20" fill="#555"/>`,
    `    <rect x="${lw}" width="${vw}" height="20" fill="${colour}"/>`,
    `    <rect width="${w}" height="20" fill="url(#s)"/>`,
    `  </g>`,
    `  <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    `    <text x="${lw / 2}" y="14">${l}</text>`,
    `    <text x="${lw + vw / 2}" y="14">${v}</text>`,
    `  </g>`,
    `</svg>`,
    '',
  ].join('\n');
}

export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
