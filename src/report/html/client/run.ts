/**
 * One run: its cells in a table row (score chips, status) and its breakdown (overview, insights,
 * waterfall, criteria, cards, transcript, notes, artifacts), built from that run's data in the page.
 */
import type { HtmlPair, HtmlRun, HtmlScore } from '../model.js';
import { renderArtifacts } from './artifacts.js';
import { renderCriteria, renderDimensions } from './dimensions.js';
import {
  CATEGORY_LABEL,
  fmtCost,
  fmtDuration,
  fmtTokens,
  h,
  lazySection,
  plural,
  scoreBar,
  scoreChip,
} from './dom.js';
import { renderNotes } from './notes.js';
import { renderTranscript, type TranscriptView } from './transcript.js';
import { renderWaterfall } from './waterfall.js';

/** The AXIS Result and the four dimension cells of a run's table row. */
export function scoreCells(run: HtmlRun): HTMLElement[] {
  const s = run.scores;
  return [
    composite(run),
    dimChip(s?.goal, run),
    dimChip(s?.environment, run),
    dimChip(s?.service, run),
    dimChip(s?.agent, run),
  ].map((chip) => h('td', { class: 'c' }, chip));
}

export function composite(run: HtmlRun): HTMLElement {
  if (run.status === 'failed') return scoreChip(null, 'failed', run.reason);
  if (run.status === 'cancelled') return scoreChip(null, 'cancelled', run.reason);
  if (run.status === 'completed') return scoreChip(null, 'not scored', run.reason);
  return scoreChip(run.scores?.axis, 'unscored', run.reason);
}

export function dimChip(s: HtmlScore | undefined, run: HtmlRun): HTMLElement {
  if (run.status === 'failed' || run.status === 'cancelled') return scoreChip(null, '—', run.reason);
  if (!s || s.unknown) return scoreChip(null, '—', run.reason);
  if (s.notApplicable) return scoreChip(null, 'n/a', 'Nothing in this run exercised this dimension');
  return scoreChip(s.score, 'unscored', s.reason);
}

export function statusText(run: HtmlRun): HTMLElement {
  const cls =
    run.status === 'scored' || run.status === 'completed' ? 'good' : run.status === 'failed' ? 'bad' : 'warn';
  return h(
    'span',
    null,
    h('span', { class: `badge ${cls}` }, run.status),
    run.reason ? h('div', { class: 'reason' }, run.reason) : null,
  );
}

export function renderRun(pair: HtmlPair, run: HtmlRun, reportId: string): HTMLElement {
  const root = h('div', { class: 'run', 'data-run-view': run.index });
  root.appendChild(runFacts(pair, run));
  if (run.warnings.length > 0) root.appendChild(warningsBanner(run));
  const banner = statusBanner(run);
  if (banner) root.appendChild(banner);
  if (run.scores) root.appendChild(overview(run));
  if (run.insights.length > 0) root.appendChild(insights(run));
  for (const s of runSections(pair, run, reportId, root)) root.appendChild(s);
  return root;
}

/** The line above the breakdown: which run, duration, tokens, cost, exit code, judge, detail file. */
function runFacts(pair: HtmlPair, run: HtmlRun): HTMLElement {
  const label =
    pair.runs.length > 1
      ? `Run ${run.index}${pair.runs[pair.representative] === run ? ' (representative)' : ''}`
      : 'Run';
  const facts = [
    `${label}`,
    `duration ${fmtDuration(run.durationMs)}`,
    `tokens ${fmtTokens(run.tokens ? run.tokens.total : null)}`,
    run.simulated ? 'cost: simulated (model simulator)' : `cost ${fmtCost(run.costUsd)}`,
    run.exitCode !== null ? `exit code ${run.exitCode}` : null,
  ].filter(Boolean);
  if (run.judge) facts.push(`judged by ${run.judge}`);
  return h(
    'div',
    { class: 'muted' },
    facts.join(' · '),
    run.file ? h('span', { class: 'mono faint' }, ` · ${run.file}`) : null,
  );
}

function warningsBanner(run: HtmlRun): HTMLElement {
  return h(
    'div',
    { class: 'banner na' },
    run.warnings.map((w) => h('div', null, w)),
  );
}

/** Why a run has no scores; null for a scored run. */
function statusBanner(run: HtmlRun): HTMLElement | null {
  if (run.status === 'failed')
    return h(
      'div',
      { class: 'banner bad', role: 'status' },
      `Run failed: ${run.reason ?? 'unknown error'}. It counts against reliability and has no scores.`,
    );
  if (run.status === 'cancelled')
    return h(
      'div',
      { class: 'banner na', role: 'status' },
      `Cancelled: ${run.reason ?? 'stopped before it finished'}. It is not counted against reliability.`,
    );
  if (run.status === 'completed')
    return h(
      'div',
      { class: 'banner na', role: 'status' },
      `Completed, not scored: ${run.reason ?? 'the run was not judged'}. \`axis score\` scores it.`,
    );
  if (run.status === 'unscored')
    return h(
      'div',
      { class: 'banner na', role: 'status' },
      `Unscored: ${run.reason ?? 'no score'}. No AXIS Result is shown rather than a guessed number.`,
    );
  return null;
}

/** The collapsible sections in page order (the timeline reveals events in the transcript, made first). */
function runSections(
  pair: HtmlPair,
  run: HtmlRun,
  reportId: string,
  root: HTMLElement,
): HTMLDetailsElement[] {
  const transcript = transcriptSection(run, root);
  return [
    ...scoreSections(run, transcript.reveal),
    transcript.section,
    ...workspaceSections(pair, run, reportId),
  ];
}

/** The transcript, built when first opened; `reveal` opens it at an event and highlights that event. */
function transcriptSection(
  run: HtmlRun,
  root: HTMLElement,
): { section: HTMLDetailsElement; reveal(eventIndex: number | undefined): void } {
  let transcript: TranscriptView | null = null;
  const section = lazySection('Transcript', plural(run.events.length, 'event'), () => {
    transcript = renderTranscript(run);
    return transcript.root;
  });
  section.setAttribute('data-section', 'transcript');
  const reveal = (eventIndex: number | undefined): void => {
    if (eventIndex === undefined) return;
    section.open = true;
    section.dispatchEvent(new Event('toggle'));
    const el = transcript?.reveal(eventIndex);
    if (!el) return;
    root.querySelectorAll('.ev.hl').forEach((e) => e.classList.remove('hl'));
    el.classList.add('hl');
    el.scrollIntoView({ block: 'center' });
  };
  return { section, reveal };
}

/** Timeline, judge evaluations and interaction audits: open from the start. */
function scoreSections(run: HtmlRun, reveal: (eventIndex: number | undefined) => void): HTMLDetailsElement[] {
  const sections: HTMLDetailsElement[] = [
    tag(
      lazySection(
        'Timeline',
        plural(run.interactions.length, 'interaction'),
        () => renderWaterfall(run, (ix) => reveal(ix.events[0])),
        true,
      ),
      'timeline',
    ),
  ];
  if (run.criteria.length > 0 || run.scores)
    sections.push(
      tag(
        lazySection(
          'Goal achievement: judge evaluations',
          plural(run.criteria.length, 'check'),
          () => renderCriteria(run.criteria),
          true,
        ),
        'criteria',
      ),
    );
  if (run.dimensions.length > 0)
    sections.push(
      tag(
        lazySection(
          'Environment, service and agent',
          'interaction audits',
          () => renderDimensions(run),
          true,
        ),
        'dimensions',
      ),
    );
  return sections;
}

/** Setup and teardown notes and the captured files. */
function workspaceSections(pair: HtmlPair, run: HtmlRun, reportId: string): HTMLDetailsElement[] {
  const sections: HTMLDetailsElement[] = [];
  if (run.notes.setupHtml)
    sections.push(
      tag(
        lazySection('Setup notes', null, () => renderNotes(run.notes.setupHtml!)),
        'setup-notes',
      ),
    );
  if (run.notes.teardownHtml)
    sections.push(
      tag(
        lazySection('Teardown notes', null, () => renderNotes(run.notes.teardownHtml!)),
        'teardown-notes',
      ),
    );
  if (run.artifacts.length > 0) {
    const zipName = safeName(
      `axis-${reportId}-${pair.scenarioKey}-${pair.agentName}-run${run.index}-artifacts.zip`,
    );
    sections.push(
      tag(
        lazySection('Captured files', plural(run.artifacts.length, 'file'), () =>
          renderArtifacts(run.artifacts, zipName),
        ),
        'artifacts',
      ),
    );
  }
  return sections;
}
function tag(el: HTMLDetailsElement, name: string): HTMLDetailsElement {
  el.setAttribute('data-section', name);
  return el;
}

function overview(run: HtmlRun): HTMLElement {
  const s = run.scores!;
  const big = h('div', { class: 'big' }, composite(run));
  const bars = h('div', { class: 'bars' });
  for (const [key, d] of [
    ['goal', s.goal],
    ['environment', s.environment],
    ['service', s.service],
    ['agent', s.agent],
  ] as const) {
    const name = CATEGORY_LABEL[key]!;
    bars.appendChild(h('div', null, name));
    bars.appendChild(scoreBar(d.notApplicable ? null : d.score, name));
    bars.appendChild(h('div', { class: 'c' }, dimChip(d, run)));
    bars.appendChild(
      h(
        'div',
        { class: 'weight' },
        d.notApplicable ? 'left out' : d.unknown ? '' : `weight ${Math.round(d.weight * 100)}%`,
      ),
    );
  }
  return h(
    'div',
    { class: 'box overview' },
    h('div', { class: 'composite' }, h('div', { class: 'muted' }, 'AXIS Result'), big),
    bars,
  );
}

function insights(run: HtmlRun): HTMLElement {
  return h(
    'div',
    { class: 'box insights' },
    h('h3', null, 'Score insights'),
    h(
      'ul',
      null,
      run.insights.map((ins) =>
        h(
          'li',
          null,
          h('strong', null, `${CATEGORY_LABEL[ins.dimension] ?? ins.dimension}: ${ins.score}/100`),
          ins.signals.length > 0
            ? h(
                'ul',
                null,
                ins.signals.map((sig) => h('li', null, sig)),
              )
            : null,
        ),
      ),
    ),
  );
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 180);
}
