/**
 * `axis history <base key>` of a scenario with variants: every stored pair has a variant key (`s@a`), so
 * the base key matched nothing and the answer was "No stored report has scenario" though `axis reports`
 * shows the scenario. It now names the variant keys to ask for.
 */
import { expect, it } from 'vitest';
import { buildHistory, formatHistory } from '../../../src/report/history.js';

const scored = (scenarioKey: string) => ({
  scenarioKey,
  agentName: 'toy',
  status: 'completed',
  score: { status: 'scored', axisScore: 90 },
});

const manifests = [
  { reportId: '2026-01-01-000000', results: [scored('s@plain'), scored('s@mcp'), scored('other')] },
  { reportId: '2026-01-02-000000', results: [scored('s@plain'), scored('s@docs')] },
];

it('names the variants of a base key that has no pair of its own', () => {
  const h = buildHistory(manifests, 's');
  expect(h.points).toEqual([]);
  expect(h.variants).toEqual(['s@docs', 's@mcp', 's@plain']);
  expect(formatHistory(h)).toBe(
    'No stored report has scenario "s" itself; it has variants: s@docs, s@mcp, s@plain (e.g. axis history s@docs).\n',
  );
});

it('says nothing of variants for an unknown key, or for a key that has pairs', () => {
  const none = buildHistory(manifests, 'gone');
  expect(none.variants).toBeUndefined();
  expect(formatHistory(none)).toBe('No stored report has scenario "gone".\n');
  expect(buildHistory(manifests, 's@plain').variants).toBeUndefined();
  expect(buildHistory(manifests, 's@plain').points).toHaveLength(2);
});
