/**
 * foldLine: every terminal line AXIS folds for a CI log (the Gate line, the `✗` lines, `CI gate:`) at
 * most `width` columns, continuation lines indented, no word or path cut unless it alone is wider than
 * the room, and nothing of the text lost.
 */
import { describe, expect, it } from 'vitest';
import { foldLine } from '../../../src/util/fold.js';
import { textWidth } from '../../../src/util/width.js';

const rejoined = (lines: string[]) => lines.map((l) => l.trim()).join(' ');

describe('foldLine', () => {
  it('a line that fits is left as it is', () => {
    expect(foldLine('  ✗ a · b: short', 80, 4)).toEqual(['  ✗ a · b: short']);
  });

  it('breaks at spaces, keeps each path whole and indents the continuation lines', () => {
    const path = '/home/runner/work/project/out/axis-report-2026-12-06-180700.json';
    const text = `  ✗ checkout/pay · toy: cannot write ${path}: EACCES: permission denied, open`;
    const lines = foldLine(text, 80, 4);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(textWidth(l), l).toBeLessThanOrEqual(80);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {4}\S/);
    expect(lines.some((l) => l.includes(`${path}:`))).toBe(true);
    expect(rejoined(lines)).toBe(text.trim());
  });

  it('prefers ` · ` to `, ` to a space', () => {
    const lines = foldLine(`Gate: ${'x'.repeat(50)} · ${'y'.repeat(30)}, ${'z'.repeat(30)}`, 80, 6);
    expect(lines[0]).toBe(`Gate: ${'x'.repeat(50)} ·`);
    expect(lines[1]).toBe(`      ${'y'.repeat(30)}, ${'z'.repeat(30)}`);
  });

  it('cuts a word only when it alone is wider than the room, in whole graphemes', () => {
    const word = 'p'.repeat(100);
    const lines = foldLine(`  ✗ a · b: ${word} end`, 80, 4);
    for (const l of lines) expect(textWidth(l), l).toBeLessThanOrEqual(80);
    expect(lines.map((l) => l.trim()).join('')).toBe(`✗ a · b:${word} end`);
    const wide = foldLine(`  ✗ 日本語 · b: ${'語'.repeat(60)}`, 40, 4);
    for (const l of wide) expect(textWidth(l), l).toBeLessThanOrEqual(40);
    expect(wide.join('')).toContain('語'.repeat(18));
  });

  it('never starts a line with `::`, which GitHub Actions would obey as a workflow command', () => {
    const name = '::stop-commands::z';
    for (const at of [10, 30, 50, 60]) {
      const text = `  ✗ ${'g'.repeat(at)} · toy ${name}: In the baseline but missing from this report (gone for good)`;
      const lines = foldLine(text, 80, 4);
      expect(
        lines.filter((l) => /^\s*:/.test(l)),
        text,
      ).toEqual([]);
      expect(rejoined(lines)).toBe(text.trim());
    }
    // A word cut in two at `::` stays whole there.
    const cut = foldLine(`  ✗ a · ${'w'.repeat(69)}::add-mask::x`, 80, 4);
    expect(cut.filter((l) => /^\s*:/.test(l))).toEqual([]);
  });
});
