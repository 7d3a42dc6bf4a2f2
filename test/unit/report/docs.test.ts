/** docs/cli.md#axis-reports and docs/reports.md stay in step with the code. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { summarizeReport } from '../../../src/report/read.js';
import { mixedPairs, removeProjects, tempProject, writeReport } from './fixture.js';

const read = (p: string) => readFileSync(new URL(`../../../${p}`, import.meta.url), 'utf8');
const cli = read('docs/cli.md');
const section = cli.slice(
  cli.indexOf('## axis reports'),
  cli.indexOf('\n## ', cli.indexOf('## axis reports') + 1),
);

describe('docs', () => {
  it('the --json list fields are the fields of a list entry', async () => {
    const project = tempProject();
    const m = await writeReport(project, new Date('2026-03-01T00:00:00Z'), mixedPairs(), {
      name: 'n',
      incomplete: true,
      incompleteReason: 'r',
    });
    const entry = { ...summarizeReport(m, 'p'), error: 'x' };
    for (const key of Object.keys(entry)) expect(section, key).toContain(`\`${key}\``);
    removeProjects();
  });

  it('docs/reports.md names both published schema files, which exist', () => {
    const doc = read('docs/reports.md');
    for (const f of ['schema/report.schema.json', 'schema/report-run.schema.json']) {
      expect(doc).toContain(`\`${f}\``);
      expect(() => read(f)).not.toThrow();
    }
    const pkg = JSON.parse(read('package.json')) as { exports: Record<string, string> };
    expect(pkg.exports['./schema/report.json']).toBe('./schema/report.schema.json');
    expect(pkg.exports['./schema/report-run.json']).toBe('./schema/report-run.schema.json');
  });
});
