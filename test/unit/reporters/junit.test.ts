import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunVerdict } from '../../../src/compare/verdict-types.js';
import { runVerdict } from '../../../src/compare/verdict.js';
import { junitXml } from '../../../src/reporters/junit.js';
import { sampleManifest } from './fixtures.js';

const XSD = join(import.meta.dirname, '../../fixtures/junit/junit-10.xsd');
const dir = mkdtempSync(join(tmpdir(), 'axis-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Validates with libxml2's xmllint (Debian libxml2-utils); returns its stderr, throws on invalid XML. */
function validate(xml: string): string {
  const file = join(dir, `r${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  return execFileSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8', stdio: 'pipe' });
}

describe('junit reporter', () => {
  it('writes one testcase per pair with dimension properties; valid against the JUnit XSD', () => {
    const m = sampleManifest();
    const xml = junitXml(m, runVerdict({ results: m.results }));
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toContain('<testsuites name="AXIS" tests="2" failures="1" errors="0" time="9.000">');
    // The scored pair: properties per dimension, no failure; the name is escaped.
    expect(xml).toContain(
      '<testcase classname="cms/&lt;post&gt;&amp;&quot;x&quot;" name="claude-code" time="1.500">',
    );
    for (const p of [
      'axis_score" value="82',
      'goal_achievement" value="90',
      'environment" value="75',
      'service" value=""',
      'agent" value="70',
    ])
      expect(xml).toContain(`<property name="${p}`);
    // The failed pair carries the API cause.
    expect(xml).toMatch(
      /<testcase classname="hello" name="codex"[^]*<failure type="failed" message="No run completed: API rejected the key \(401\) after 10 retries/,
    );
  });

  it('a threshold or regression from the verdict fails an otherwise completed pair', () => {
    const m = sampleManifest();
    const verdict: RunVerdict = {
      pass: false,
      baseline: { name: 'main', tolerance: 1 },
      pairs: [
        {
          scenarioKey: m.results[0]!.scenarioKey,
          agent: 'claude-code',
          failures: [
            {
              kind: 'threshold',
              metric: 'axis_score',
              value: 82,
              limit: 85,
              message: 'AXIS Result 82 is below the threshold 85',
            },
            {
              kind: 'regression',
              metric: 'environment',
              value: 75,
              limit: 80,
              message: 'environment fell from 80 to 75',
            },
          ],
        },
        { scenarioKey: 'hello', agent: 'codex', failures: [] },
      ],
    };
    const xml = junitXml(m, verdict);
    validate(xml);
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('<failure type="threshold" message="AXIS Result 82 is below the threshold 85">');
    expect(xml).toContain('<failure type="regression" message="environment fell from 80 to 75">');
    expect(xml).not.toContain('type="failed"');
  });

  it('control characters and lone surrogates from agent text cannot break the document', () => {
    const m = sampleManifest();
    m.results[1]!.runs[0]!.reason = 'bad \u0000\u001b[31m byte \ud800 ]]> </failure>';
    const xml = junitXml(m);
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toContain('&lt;/failure&gt;');
  });

  it('a baseline pair missing from the report is a failing test case of its own, valid against the XSD', () => {
    const m = sampleManifest();
    const verdict = runVerdict({ results: m.results });
    const message = 'In the baseline but missing from this report';
    verdict.pairs.push({ scenarioKey: 'gone', agent: 'codex', failures: [{ kind: 'missing', message }] });
    const xml = junitXml(m, { ...verdict, pass: false });
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toContain('<testsuites name="AXIS" tests="3" failures="2" ');
    expect(xml).toMatch(
      /<testcase classname="gone" name="codex" time="0\.000">[^]*<property name="status" value="missing"\/>[^]*<failure type="missing" message="In the baseline but missing from this report">/,
    );
  });

  it('a cancelled pair is skipped, not a passing test (the run never finished it)', () => {
    const m = sampleManifest();
    const c = m.results[1]!;
    c.status = 'cancelled';
    c.reason = 'Overall token limit reached (200 tokens)';
    c.runs = c.runs.map((r) => ({ ...r, status: 'cancelled' as const, reason: c.reason! }));
    const verdict: RunVerdict = {
      pass: false,
      baseline: null,
      incomplete: 'Overall token limit reached (200 tokens)',
      pairs: m.results.map((r) => ({ scenarioKey: r.scenarioKey, agent: r.agentName, failures: [] })),
    };
    const xml = junitXml(m, verdict);
    expect(() => validate(xml)).not.toThrow();
    // The gate fails the incomplete run: its own test case fails, so the file is never all green.
    expect(xml).toContain('tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toContain(
      '<failure type="incomplete" message="The run is incomplete: Overall token limit reached (200 tokens)">',
    );
    expect(xml).toMatch(
      /<testcase classname="hello" name="codex"[^]*<skipped message="Cancelled: Overall token limit reached \(200 tokens\)"\/>/,
    );
  });

  it('a run where no pair was scored fails the gate with no pair to blame: its own test case fails', () => {
    const m = sampleManifest();
    m.results = [m.results[0]!];
    const reason = 'goal judge failed: HTTP 500';
    m.results[0]!.score = { ...m.results[0]!.score!, status: 'unscored', reason } as never;
    const verdict = runVerdict({ results: m.results });
    expect(verdict).toMatchObject({ pass: false, unscored: reason });
    const xml = junitXml(m, verdict);
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toContain('<testsuites name="AXIS" tests="2" failures="1" ');
    expect(xml).toContain(
      '<testcase classname="AXIS" name="run scored" time="0.000">\n' +
        '      <failure type="unscored" message="No pair was scored: goal judge failed: HTTP 500">',
    );
  });

  it('an incomplete run without a verdict (a partial merge) still fails the file', () => {
    const m = { ...sampleManifest(), incomplete: true as const, incompleteReason: 'shard 2/3 missing' };
    const xml = junitXml(m);
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toContain('<testsuites name="AXIS" tests="3" failures="2" ');
    expect(xml).toContain('message="The run is incomplete: shard 2/3 missing"');
  });

  it('the suite properties say the gate and what it checked, in the Gate line words; valid against the XSD', () => {
    const m = sampleManifest();
    const held = runVerdict({
      results: m.results,
      thresholds: { settings: { axis_score: 70, reliability: 0.5 }, source: 'axis.config.json' },
    });
    const xml = junitXml(m, { ...held, baseline: { name: 'main', tolerance: 2 } });
    expect(() => validate(xml)).not.toThrow();
    expect(xml).toContain('<property name="gate" value="fail"/>');
    expect(xml).toContain(
      '<property name="gate_checks" value="thresholds axis_score, reliability (axis.config.json) · baseline main (tolerance floor 2)"/>',
    );
    const bare = junitXml(m, runVerdict({ results: m.results }));
    expect(bare).toContain(
      '<property name="gate_checks" value="no thresholds · no baseline (checked only that pairs completed)"/>',
    );
    // No verdict (a partial merge): nothing is claimed. One stored before AXIS recorded its thresholds
    // says they are not recorded, as every view does.
    expect(junitXml(m)).not.toContain('name="gate');
    const { thresholds: _t, ...old } = held;
    expect(junitXml(m, old)).toContain('<property name="gate" value="fail"/>');
    expect(junitXml(m, old)).toContain(
      '<property name="gate_checks" value="thresholds not recorded · no baseline"/>',
    );
  });

  it('the validator really rejects a broken document', () => {
    expect(() => validate('<testsuites><testcase/></testsuites>')).toThrow();
  });
});
