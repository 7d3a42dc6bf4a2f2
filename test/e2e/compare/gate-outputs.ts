/**
 * Reading back the outputs gate-surfaces.test.ts compares with report.json's verdict: report.html's
 * embedded gate, the JUnit file's failures, the step summary's markdown.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeReportData } from '../../../src/report/html/render.js';
import type { RunVerdict } from '../../../src/report/verdict.js';

export function htmlGate(id: string, at: string): unknown {
  const page = readFileSync(join(at, '.axis/reports', id, 'report.html'), 'utf8');
  const payload = /<script id="axis-report-data"[^>]*>([^<]*)<\/script>/.exec(page)![1]!.trim();
  return decodeReportData(payload).report.gate;
}

export const unXml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Per JUnit test case (`<scenario> · <agent>`), its failures as `<type>: <message>`. */
export function junitFailures(xml: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const tc of xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^]*?<\/testcase>/g)) {
    const fs = [...tc[0].matchAll(/<failure type="([^"]*)" message="([^"]*)"/g)];
    out.set(
      `${unXml(tc[1]!)} · ${unXml(tc[2]!)}`,
      fs.map((f) => `${f[1]}: ${unXml(f[2]!)}`),
    );
  }
  return out;
}

/** The verdict's reasons for each pair, joined as the summaries list them. */
export const pairCauses = (v: RunVerdict) =>
  v.pairs
    .filter((p) => p.failures.length > 0)
    .map((p) => `${p.scenarioKey} · ${p.agent}: ${p.failures.map((f) => f.message).join('; ')}`);

/** The step summary's markdown escaping of literal text (src/reporters/github.ts md). */
export const md = (s: string) => s.replace(/[\\`*_[\]~|]/g, '\\$&');
