/**
 * One pair's detail panel. With several runs it lists them above the breakdown; selecting a row
 * rebuilds the whole breakdown (overview, insights, waterfall, criteria, cards, transcript, notes,
 * artifacts) from that run's data, which is all in the page.
 */
import type { HtmlPair, HtmlRun, HtmlScore } from '../model.js';
import { renderArtifacts } from './artifacts.js';
import { renderCriteria, renderDimensions } from './dimensions.js';
import {
  CATEGORY_LABEL,
  clear,
  fmtCost,
  fmtDuration,
  fmtTokens,
  h,
  lazySection,
  plural,
  scoreBar,
  scoreChip,
  tooltip,
} from './dom.js';
import { renderNotes } from './notes.js';
import { renderTranscript, type TranscriptView } from './transcript.js';
import { renderWaterfall } from './waterfall.js';

const REPRESENTATIVE_HELP =
  'The run this pair reports: the run whose AXIS Result sits nearest the median of the scored runs ' +
  '(on a tie, the lower one). ' +
  'Its scores are the headline in the results table and in baselines, so the transcript and audits you ' +
  'drill into belong to the number you see. Crashed runs count against reliability instead.';

export interface PairView {
  el: HTMLElement;
  /** Show run `i` (an index into `pair.runs`). */
  showRun(i: number): void;
}

/** `onRun` hears every run the user selects (for the deep link). */
export function renderPair(
  pair: HtmlPair,
  reportId: string,
  onRun: (i: number) => void = () => {},
): PairView {
  const breakdown = h('div', { class: 'breakdown' });
  const show = (i: number): void => {
    clear(breakdown);
    breakdown.appendChild(renderRun(pair, pair.runs[i]!, reportId));
  };
  const head = h(
    'div',
    { class: 'panel-head' },
    h('h3', null, pair.scenarioName),
    h('span', { class: 'key mono' }, pair.scenarioKey),
    h('span', { class: 'muted' }, `agent ${pair.agentName}`),
  );
  const parts: HTMLElement[] = [head];
  let select = show;
  if (pair.runs.length > 1) {
    const runs = runsTable(pair, show, onRun);
    parts.push(runs.el);
    select = runs.select;
  }
  parts.push(breakdown);
  show(pair.representative);
  return { el: h('div', { class: 'panel' }, parts), showRun: select };
}

function runsTable(
  pair: HtmlPair,
  show: (i: number) => void,
  onRun: (i: number) => void,
): { el: HTMLElement; select(i: number): void } {
  const rows: HTMLElement[] = [];
  const select = (i: number): void => {
    rows.forEach((r, j) => {
      r.classList.toggle('selected', i === j);
      r.querySelector('button')?.setAttribute('aria-pressed', String(i === j));
    });
    show(i);
  };
  const pick = (i: number): void => {
    select(i);
    onRun(i);
  };
  pair.runs.forEach((run, i) => {
    const btn = h(
      'button',
      { type: 'button', class: 'run-btn', 'aria-pressed': String(i === pair.representative) },
      `Run ${run.index}`,
    );
    btn.addEventListener('click', (e) => {
      e.stopPropagation();
      pick(i);
    });
    const tr = h(
      'tr',
      { class: i === pair.representative ? 'selected' : null, 'data-run': run.index },
      h('td', null, btn),
      scoreCells(run),
      h('td', { class: 'num' }, fmtDuration(run.durationMs)),
      h('td', null, statusText(run)),
      h(
        'td',
        { class: 'c' },
        i === pair.representative
          ? h('span', { class: 'rep-mark', 'aria-label': 'representative run' }, '★ yes')
          : '',
      ),
    );
    tr.addEventListener('click', () => pick(i));
    rows.push(tr);
  });
  const sp = pair.spread;
  const el = h(
    'div',
    { class: 'box' },
    h(
      'div',
      { class: 'muted' },
      // The words of the terminal's line under a repeated pair (pairRunsText), σ explained on hover.
      sp
        ? [
            `AXIS Result over the runs: median ${sp.median}, range ${sp.min}–${sp.max}, `,
            h('abbr', { title: 'standard deviation' }, 'σ'),
            ` ${sp.sigma} · `,
          ]
        : '',
      pair.reliabilityText,
    ),
    h(
      'div',
      { class: 'runs-wrap' },
      h(
        'table',
        { class: 'runs' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', null, 'Run'),
            h('th', { class: 'c' }, 'AXIS'),
            h('th', { class: 'c' }, 'Goal'),
            h('th', { class: 'c' }, 'Env'),
            h('th', { class: 'c' }, 'Svc'),
            h('th', { class: 'c' }, 'Agent'),
            h('th', { class: 'num' }, 'Duration'),
            h('th', null, 'Status'),
            h('th', { class: 'c' }, tooltip('Representative', REPRESENTATIVE_HELP)),
          ),
        ),
        h('tbody', null, rows),
      ),
    ),
  );
  return { el, select };
}

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
  return scoreChip(run.scores?.axis, 'unscored', run.reason);
}

export function dimChip(s: HtmlScore | undefined, run: HtmlRun): HTMLElement {
  if (run.status === 'failed' || run.status === 'cancelled') return scoreChip(null, '—', run.reason);
  if (!s || s.unknown) return scoreChip(null, '—', run.reason);
  if (s.notApplicable) return scoreChip(null, 'n/a', 'Nothing in this run exercised this dimension');
  return scoreChip(s.score, 'unscored', s.reason);
}

export function statusText(run: HtmlRun): HTMLElement {
  const cls = run.status === 'scored' ? 'good' : run.status === 'failed' ? 'bad' : 'warn';
  return h(
    'span',
    null,
    h('span', { class: `badge ${cls}` }, run.status),
    run.reason ? h('div', { class: 'reason' }, run.reason) : null,
  );
}

function renderRun(pair: HtmlPair, run: HtmlRun, reportId: string): HTMLElement {
  const root = h('div', { class: 'run', 'data-run-view': run.index });
  const label =
    pair.runs.length > 1
      ? `Run ${run.index}${pair.runs[pair.representative] === run ? ' (representative)' : ''}`
      : 'Run';
  const facts = [
    `${label}`,
    `duration ${fmtDuration(run.durationMs)}`,
    `tokens ${fmtTokens(run.tokens ? run.tokens.input + run.tokens.output : null)}`,
    run.simulated ? 'cost: simulated (model simulator)' : `cost ${fmtCost(run.costUsd)}`,
    run.exitCode !== null ? `exit code ${run.exitCode}` : null,
  ].filter(Boolean);
  if (run.judge) facts.push(`judged by ${run.judge}`);
  root.appendChild(
    h(
      'div',
      { class: 'muted' },
      facts.join(' · '),
      run.file ? h('span', { class: 'mono faint' }, ` · ${run.file}`) : null,
    ),
  );
  if (run.warnings.length > 0)
    root.appendChild(
      h(
        'div',
        { class: 'banner na' },
        run.warnings.map((w) => h('div', null, w)),
      ),
    );

  if (run.status === 'failed')
    root.appendChild(
      h(
        'div',
        { class: 'banner bad', role: 'status' },
        `Run failed: ${run.reason ?? 'unknown error'}. It counts against reliability and has no scores.`,
      ),
    );
  else if (run.status === 'cancelled')
    root.appendChild(
      h(
        'div',
        { class: 'banner na', role: 'status' },
        `Cancelled: ${run.reason ?? 'stopped before it finished'}. It is not counted against reliability.`,
      ),
    );
  else if (run.status === 'unscored')
    root.appendChild(
      h(
        'div',
        { class: 'banner na', role: 'status' },
        `Unscored: ${run.reason ?? 'no score'}. No AXIS Result is shown rather than a guessed number.`,
      ),
    );

  if (run.scores) root.appendChild(overview(run));
  if (run.insights.length > 0) root.appendChild(insights(run));

  let transcript: TranscriptView | null = null;
  const transcriptSection = lazySection('Transcript', plural(run.events.length, 'event'), () => {
    transcript = renderTranscript(run);
    return transcript.root;
  });
  transcriptSection.setAttribute('data-section', 'transcript');
  const reveal = (eventIndex: number | undefined): void => {
    if (eventIndex === undefined) return;
    transcriptSection.open = true;
    transcriptSection.dispatchEvent(new Event('toggle'));
    const el = transcript?.reveal(eventIndex);
    if (!el) return;
    root.querySelectorAll('.ev.hl').forEach((e) => e.classList.remove('hl'));
    el.classList.add('hl');
    el.scrollIntoView({ block: 'center' });
  };

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
  sections.push(transcriptSection);
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
  for (const s of sections) root.appendChild(s);
  return root;
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
