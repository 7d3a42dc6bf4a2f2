/**
 * A run that fails after its jobs ran still ends its terminal output with the gate: the verdict the
 * runner judged (`run_finished`), as `axis reports` shows it, or a plain "not judged" when it failed
 * before judging; nothing about a gate when it failed before any job, and never the gate twice.
 */
import { describe, expect, it } from 'vitest';
import { gateLines, type RunVerdict } from '../../../src/report/verdict.js';
import { Dispatcher } from '../../../src/reporters/index.js';
import { createListReporter } from '../../../src/reporters/list.js';
import type { Screen } from '../../../src/reporters/types.js';
import { jobRef as ref, runBegin, sampleManifest } from './fixtures.js';

const { startedAt: _startedAt, ...started } = runBegin([ref(0, 'cms/post')], 1);
const RUN_STARTED = { type: 'run_started', ...started } as const;
const VERDICT: RunVerdict = { pass: true, thresholds: null, baseline: null, pairs: [] };
const NOT_JUDGED = 'Gate: not judged: the run failed before its verdict was computed';

/** A Dispatcher over the plain terminal reporter; `out()`: what it wrote on stdout. */
async function terminal() {
  let stdout = '';
  const screen: Screen = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: () => true },
    env: {},
    cwd: '/project',
  };
  const d = new Dispatcher([await createListReporter(screen, { toStderr: false })], screen);
  return { d, out: () => stdout };
}

const finished = (verdict?: RunVerdict) =>
  ({
    type: 'run_finished',
    manifest: { ...sampleManifest(), ...(verdict ? { verdict } : {}) },
    reportDir: '/project/.axis/reports/x',
    incomplete: false,
  }) as never;

describe('the gate of a run that failed late', () => {
  it('judged: its Gate line, as axis reports draws it', async () => {
    const { d, out } = await terminal();
    d.onEvent(RUN_STARTED as never);
    d.onEvent(finished(VERDICT));
    d.error(new Error('-o/--output-dir: cannot write'), 1);
    expect(out()).toContain(`\n${gateLines(VERDICT).join('\n')}\n`);
    expect(out()).not.toContain(NOT_JUDGED);
  });

  it('not judged (the failure came before the verdict): said so plainly', async () => {
    const { d, out } = await terminal();
    d.onEvent(RUN_STARTED as never);
    d.error(new Error('boom'), 1);
    expect(out()).toContain(`\n${NOT_JUDGED}\n`);
  });

  it('before any job ran: no gate is mentioned', async () => {
    const { d, out } = await terminal();
    d.error(new Error('invalid config'), 2);
    expect(out()).not.toContain('Gate');
  });

  it('after the summary was written (a reporter failed): the Gate line is not repeated', async () => {
    const { d, out } = await terminal();
    d.onEvent(RUN_STARTED as never);
    d.onEvent(finished(VERDICT));
    const end = { manifest: sampleManifest(), reportDir: '/p/r', reportRel: 'r', configArg: '' };
    await d.end(end, VERDICT);
    d.error(new Error('github reporter: cannot append'), 1);
    expect(out().split('Gate: ')).toHaveLength(2);
  });
});
