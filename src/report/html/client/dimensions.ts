/**
 * Goal criteria (judge evaluations with rationale) and the environment / service / agent cards:
 * sub-dimension values, then audits with the imperfect ones first and passing ones folded away.
 */
import type { HtmlAudit, HtmlCriterion, HtmlDimension, HtmlInteraction, HtmlRun } from '../model.js';
import { toHundred, partLabel, PART_QUESTION, SOURCE_LABEL } from './labels.js';
import { CATEGORY_LABEL, h, plural, scoreBar, scoreChip, scoreClass } from './dom.js';

const FIELDS = ['success', 'speed', 'weight', 'relevance'] as const;
const SUBS = ['success', 'speed', 'weight', 'relevance', 'necessity'] as const;

export function renderCriteria(criteria: readonly HtmlCriterion[]): HTMLElement {
  if (criteria.length === 0)
    return h('p', { class: 'empty' }, 'No judge checks were evaluated for this run.');
  return h(
    'div',
    { class: 'criteria' },
    criteria.map((c) => {
      const pct = c.score === null ? null : c.score * 10;
      return h(
        'div',
        { class: 'criterion' },
        h('div', { class: 'check' }, c.check),
        h(
          'div',
          { class: 'grade' },
          scoreBar(pct, `Score for: ${c.check}`),
          h('span', { class: 'nowrap' }, c.score === null ? 'no grade' : `${c.score}/10`),
        ),
        h(
          'div',
          { class: 'rationale' },
          h('span', { class: 'src' }, `${c.kind} · weight ${Math.round(c.weight * 100)}% — `),
          c.rationale || 'No rationale given.',
        ),
      );
    }),
  );
}

export function renderDimensions(run: HtmlRun): HTMLElement {
  const byId = new Map(run.interactions.map((ix) => [ix.id, ix]));
  return h(
    'div',
    { class: 'dims' },
    run.dimensions.map((d) => card(d, run, byId)),
  );
}

function card(d: HtmlDimension, run: HtmlRun, byId: Map<number, HtmlInteraction>): HTMLElement {
  const head = h(
    'div',
    { class: 'dim-head' },
    h('h3', null, CATEGORY_LABEL[d.id] ?? d.id),
    scoreChip(d.score, d.notApplicable ? 'n/a' : 'unscored', d.reason),
  );
  if (d.notApplicable)
    return h(
      'div',
      { class: 'dim', 'data-dimension': d.id },
      head,
      h(
        'p',
        { class: 'empty' },
        `No ${d.id} interactions in this run: this dimension is left out of the AXIS Result.`,
      ),
    );

  const subs = h(
    'div',
    { class: 'subs' },
    SUBS.filter((s) => d.sub[s] !== null).map((s) =>
      h(
        'div',
        { class: 'sub', title: `${partLabel(s)}: ${PART_QUESTION[s]}` },
        h('div', { class: 'name' }, partLabel(s)),
        h('div', { class: 'v' }, scoreChip(d.sub[s])),
      ),
    ),
  );
  const parts: (HTMLElement | null)[] = [
    head,
    h(
      'div',
      { class: 'dim-stats' },
      `${plural(d.interactionCount, 'interaction')} · ${d.auditedCount} checked · ${d.judgedCount} judged by a model`,
    ),
    d.reason ? h('p', { class: 'muted' }, d.reason) : null,
    subs,
  ];
  if (d.id === 'agent' && run.necessity) {
    parts.push(
      h(
        'p',
        { class: 'muted' },
        `Interactions needed: ${run.necessity.score ?? '—'}/100. ${run.necessity.rationale}`,
        run.necessity.unnecessaryIds.length > 0
          ? ` Not needed: ${run.necessity.unnecessaryIds.map((id) => `#${id}`).join(', ')}.`
          : '',
      ),
    );
  }
  const patterns = run.patterns.filter((p) =>
    p.interactionIds.some((id) => byId.get(id)?.categories.includes(d.id)),
  );
  if (patterns.length > 0)
    parts.push(
      h(
        'ul',
        { class: 'muted' },
        patterns.map((p) =>
          h('li', null, h('span', { class: 'tag s-warn' }, `${p.kind} · ${p.severity}`), ' ', p.description),
        ),
      ),
    );
  parts.push(auditList(d.audits, byId));
  return h('div', { class: 'dim', 'data-dimension': d.id }, parts);
}

function lowest(a: HtmlAudit): number {
  let v = 1;
  for (const f of FIELDS) if (typeof a[f] === 'number') v = Math.min(v, a[f]!);
  return v;
}

function auditList(audits: readonly HtmlAudit[], byId: Map<number, HtmlInteraction>): HTMLElement {
  if (audits.length === 0) return h('p', { class: 'empty' }, 'No audits.');
  const imperfect = audits
    .filter((a) => lowest(a) < 1)
    .sort((a, b) => lowest(a) - lowest(b) || a.interactionId - b.interactionId);
  const passing = audits.filter((a) => lowest(a) >= 1);
  const list = h(
    'ul',
    { class: 'audits' },
    imperfect.map((a) => auditItem(a, byId)),
  );
  const root = h('div', null, list);
  if (imperfect.length === 0)
    list.appendChild(h('li', { class: 'audit empty' }, 'Every audited interaction passed.'));
  if (passing.length > 0) {
    const btn = h(
      'button',
      { type: 'button', class: 'link-btn' },
      `Show ${plural(passing.length, 'passing interaction')}`,
    );
    btn.addEventListener('click', () => {
      for (const a of passing) list.appendChild(auditItem(a, byId));
      btn.remove();
    });
    root.appendChild(btn);
  }
  return root;
}

function auditItem(a: HtmlAudit, byId: Map<number, HtmlInteraction>): HTMLElement {
  const ix = byId.get(a.interactionId);
  const tags = FIELDS.filter((f) => typeof a[f] === 'number').map((f) => {
    const pct = toHundred(a[f]!);
    return h(
      'span',
      { class: `tag s-${scoreClass(pct)}`, title: PART_QUESTION[f] },
      `${partLabel(f)} ${pct}`,
    );
  });
  return h(
    'li',
    { class: 'audit' },
    h(
      'div',
      { class: 'head' },
      h('span', { class: 'ix' }, `#${a.interactionId} ${ix ? ix.label : ''}`),
      tags,
      h('span', { class: 'src' }, SOURCE_LABEL[a.source] ?? a.source),
    ),
    a.rationale ? h('div', { class: 'why' }, a.rationale) : null,
  );
}
