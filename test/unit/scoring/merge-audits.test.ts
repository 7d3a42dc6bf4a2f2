import { describe, expect, it } from 'vitest';
import { mergeAudits, scoreDimension } from '../../../src/scoring/dimensions.js';
import type { Audit, AuditField, Category, ClassifiedInteraction } from '../../../src/scoring/types.js';

const FIELDS: readonly AuditField[] = ['success', 'speed', 'weight', 'relevance'];

/**
 * The merge rule as docs/scoring.md states it, written the plain way: per field, the first audit by
 * rank (unambiguous signal, judge, ambiguous signal, default) that has it; a failed call's speed scaled
 * by its success. mergeAudits takes a shorter path for a single candidate: same audits, same key order.
 */
function reference(category: Category, pool: readonly { id: number }[], audits: readonly Audit[]): Audit[] {
  const rank = (a: Audit) => (a.source === 'signal' ? (a.unambiguous ? 0 : 2) : a.source === 'judge' ? 1 : 3);
  return pool.map((ix) => {
    const candidates = audits
      .filter((a) => a.category === category && a.interactionId === ix.id)
      .sort((a, b) => rank(a) - rank(b));
    const merged: Audit = { interactionId: ix.id, category, rationale: '', source: 'default' };
    const fieldSources: Partial<Record<AuditField, 'signal' | 'judge'>> = {};
    const used: Audit[] = [];
    for (const field of FIELDS) {
      const pick = candidates.find((a) => a[field] !== undefined);
      if (!pick) continue;
      merged[field] = pick[field]!;
      if (pick.source !== 'default') fieldSources[field] = pick.source;
      if (!used.includes(pick)) used.push(pick);
    }
    const sources = Object.values(fieldSources);
    merged.source = sources.includes('judge') ? 'judge' : sources.includes('signal') ? 'signal' : 'default';
    if (sources.length > 0) merged.fieldSources = fieldSources;
    const said = [...new Set(used.filter((a) => a.rationale !== '').map((a) => a.rationale))];
    merged.rationale = said.length === 0 ? 'not audited' : said.join('; ');
    if (merged.speed !== undefined && merged.success !== undefined && merged.success < 1) {
      const pct = (v: number) => Math.round(v * 100);
      const credited = merged.speed * merged.success;
      merged.rationale += `; speed ${pct(merged.speed)}/100 counts as ${pct(credited)}/100 because it worked ${pct(merged.success)}/100 (failed work earns no speed credit)`;
      merged.speed = credited;
    }
    return merged;
  });
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible seed. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomAudits(r: () => number, ids: number[]): Audit[] {
  const out: Audit[] = [];
  const sources = ['signal', 'judge', 'default'] as const;
  const cats: Category[] = ['environment', 'service', 'agent'];
  for (const id of ids) {
    // 0 to 3 audits per interaction and category, most with one.
    for (const category of cats) {
      const n = r() < 0.15 ? 0 : r() < 0.75 ? 1 : 2 + Math.floor(r() * 2);
      for (let k = 0; k < n; k++) {
        const a: Audit = {
          interactionId: id,
          category,
          rationale: r() < 0.2 ? '' : `reason ${Math.floor(r() * 4)}`,
          source: sources[Math.floor(r() * 3)]!,
        };
        for (const f of FIELDS) if (r() < 0.55) a[f] = r() < 0.3 ? 1 : Math.round(r() * 100) / 100;
        if (a.source === 'signal' && r() < 0.5) a.unambiguous = true;
        out.push(a);
      }
    }
  }
  // Arrival order is not by id.
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('mergeAudits', () => {
  it('matches the plain merge rule on generated audits, key order included', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const r = rng(seed);
      const ids = Array.from({ length: 1 + Math.floor(r() * 12) }, (_, i) => i + 1);
      const pool = ids.map((id) => ({ id }) as ClassifiedInteraction);
      const audits = randomAudits(r, ids);
      for (const category of ['environment', 'service', 'agent'] as const) {
        const got = JSON.stringify(mergeAudits(category, pool, audits));
        const want = JSON.stringify(reference(category, pool, audits));
        expect(got, `seed ${seed}, ${category}`).toBe(want);
      }
    }
  });

  it('a single judge audit keeps its values, names its source per field and credits speed by success', () => {
    const pool = [{ id: 7 }] as ClassifiedInteraction[];
    const [m] = mergeAudits('environment', pool, [
      {
        interactionId: 7,
        category: 'environment',
        rationale: 'slow and failed',
        source: 'judge',
        success: 0.5,
        speed: 0.8,
      },
    ]);
    expect(m).toEqual({
      interactionId: 7,
      category: 'environment',
      rationale:
        'slow and failed; speed 80/100 counts as 40/100 because it worked 50/100 (failed work earns no speed credit)',
      source: 'judge',
      success: 0.5,
      speed: 0.4,
      fieldSources: { success: 'judge', speed: 'judge' },
    });
    expect(Object.keys(m!)).toEqual([
      'interactionId',
      'category',
      'rationale',
      'source',
      'success',
      'speed',
      'fieldSources',
    ]);
  });

  it('an audit without values, or none at all, leaves the interaction not audited', () => {
    const pool = [{ id: 1 }, { id: 2 }] as ClassifiedInteraction[];
    const out = mergeAudits('agent', pool, [
      { interactionId: 1, category: 'agent', rationale: 'said nothing', source: 'judge' },
    ]);
    expect(out).toEqual([
      { interactionId: 1, category: 'agent', rationale: 'not audited', source: 'default' },
      { interactionId: 2, category: 'agent', rationale: 'not audited', source: 'default' },
    ]);
  });

  it('still rejects an audit value outside 0..1', () => {
    const pool = [{ id: 1 }] as ClassifiedInteraction[];
    expect(() =>
      mergeAudits('agent', pool, [
        { interactionId: 1, category: 'agent', rationale: '', source: 'judge', weight: 1.5 },
      ]),
    ).toThrow(/weight must be between 0 and 1, found 1.5/);
  });
});

describe('coverage: every pool interaction needs each weighted field from a judge or an unambiguous signal', () => {
  const pool = (ids: number[]) =>
    ids.map((id) => ({ id, type: 'tool', categories: ['environment'] }) as ClassifiedInteraction);
  const judge = (id: number): Audit => ({
    interactionId: id,
    category: 'environment',
    rationale: 'ok',
    source: 'judge',
    success: 1,
  });
  /** An unambiguous signal's verdict: it counts. */
  const settled = (id: number, category: Category, field: AuditField): Audit => ({
    interactionId: id,
    category,
    rationale: 'settled',
    source: 'signal',
    [field]: 1,
    unambiguous: true,
  });
  // Dense ids (1..n) take the array path, ids in the millions the map path: the same answer.
  const idSets = (n: number) =>
    [
      ['dense ids', Array.from({ length: n }, (_, i) => i + 1)],
      ['sparse, huge ids', Array.from({ length: n }, (_, i) => (i + 1) * 1_000_003)],
    ] as const;

  for (const [name, ids] of idSets(25)) {
    it(`names the first 10 lacking ids and counts them all (${name})`, () => {
      const list = pool([...ids]);
      const audits: Audit[] = [
        ...ids.filter((_, k) => k % 2 === 0).map(judge),
        // An ambiguous signal's guess does not count; an unambiguous one does; another category does not.
        { interactionId: ids[1]!, category: 'environment', rationale: 'guess', source: 'signal', success: 0 },
        settled(ids[3]!, 'environment', 'success'),
        { interactionId: ids[5]!, category: 'service', rationale: 'other', source: 'judge', success: 1 },
        // An id outside the pool changes nothing.
        judge(99_999_999),
      ];
      const d = scoreDimension('environment', { interactions: list, audits });
      const lacking = ids.filter((_, k) => k % 2 === 1 && k !== 3);
      expect(d.unscoredReason).toBe(
        `no success verdict for ${lacking.length} of 25 interactions (${lacking
          .slice(0, 10)
          .map((id) => `#${id}`)
          .join(', ')}, …)`,
      );
      const full = scoreDimension('environment', {
        interactions: list,
        audits: [...audits, ...lacking.map(judge)],
      });
      expect(full.unscoredReason).toBeUndefined();
      expect(full.score).not.toBeNull();
    });
  }

  // Several weighted fields (agent: success, weight, relevance), each lacking for other interactions.
  for (const [name, ids] of idSets(12)) {
    it(`names what each field lacks, field by field (${name})`, () => {
      const list = ids.map(
        (id) => ({ id, type: 'tool', categories: [] }) as unknown as ClassifiedInteraction,
      );
      const verdict = (id: number, field: 'success' | 'weight' | 'relevance'): Audit => ({
        interactionId: id,
        category: 'agent',
        rationale: 'ok',
        source: 'judge',
        [field]: 1,
      });
      const audits: Audit[] = [
        ...ids.slice(2).map((id) => verdict(id, 'success')),
        ...ids.filter((_, k) => k !== 2).map((id) => verdict(id, 'weight')),
        ...ids.filter((_, k) => k !== 0 && k !== 3).map((id) => verdict(id, 'relevance')),
        // Not counted: a guess, another dimension's verdict. Counted: an unambiguous signal.
        { interactionId: ids[2]!, category: 'agent', rationale: 'guess', source: 'signal', weight: 1 },
        {
          interactionId: ids[0]!,
          category: 'environment',
          rationale: 'other',
          source: 'judge',
          relevance: 1,
        },
        settled(ids[3]!, 'agent', 'relevance'),
      ];
      const necessity = { score: 1, unnecessaryIds: [], rationale: 'all needed' };
      const d = scoreDimension('agent', { interactions: list, audits, necessity });
      expect(d.unscoredReason).toBe(
        `no success verdict for 2 of 12 interactions (#${ids[0]}, #${ids[1]}); ` +
          `no weight verdict for 1 of 12 interactions (#${ids[2]}); ` +
          `no relevance verdict for 1 of 12 interactions (#${ids[0]})`,
      );
    });
  }
});
