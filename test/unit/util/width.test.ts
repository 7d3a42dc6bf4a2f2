/**
 * Terminal columns are counted in display width, not UTF-16 code units: a CJK character or an emoji takes
 * two columns, a combining mark none, an ANSI colour code none.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { clipWidth, NARROW, padEndWidth, padStartWidth, textWidth } from '../../../src/util/width.js';

const FAMILY = '👨‍👩‍👧'; // three emoji joined by ZWJs: one grapheme, two columns
const E_ACUTE = 'e\u0301'; // e + combining acute accent: one column
const red = (s: string) => `\x1b[31m${s}\x1b[39m`;

describe('textWidth', () => {
  it('counts columns: ASCII 1, CJK 2, emoji 2, a ZWJ family 2, a combining mark 0, ANSI codes 0', () => {
    expect(textWidth('cms/post')).toBe(8);
    expect(textWidth('')).toBe(0);
    expect(textWidth('日本語')).toBe(6);
    expect(textWidth('🚀')).toBe(2);
    expect(textWidth(FAMILY)).toBe(2);
    expect(textWidth(`caf${E_ACUTE}`)).toBe(4);
    expect(textWidth(red('日本'))).toBe(4);
    expect(textWidth(red('ok'))).toBe(2);
  });
});

describe('the narrow fast path', () => {
  it('admits only characters string-width also measures as one column', () => {
    const admitted: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (NARROW.test(String.fromCharCode(c))) admitted.push(c);
    expect(admitted.length).toBeGreaterThan(600);
    const wrong = admitted.filter((c) => stringWidth(String.fromCharCode(c)) !== 1);
    expect(wrong.map((c) => c.toString(16))).toEqual([]);
  });

  it("measures AXIS's own table cells, painted or not, as string-width does", () => {
    const cells = ['–', '—', '✓ completed', '✗ failed', 'a · b', '▁▄█', '▲ +3', '…', 'café'];
    cells.push('⚠ did nothing', '✔ pass', 'Δ −3 ≥ 2σ', 'α 0.05', '≤ 1.25× ≠ ∞');
    for (const cell of cells)
      for (const text of [cell, red(cell)]) expect(textWidth(text)).toBe(stringWidth(text));
    expect(textWidth('◽')).toBe(2);
  });
});

describe('loading string-width', () => {
  // The built module in a fresh Node, counting require('string-width') calls: narrow text must not load
  // it (its regexes cost an axis run ~40 ms and 4 MB), the first wide text must, and only once.
  it('happens on the first text outside the fast path, not before', () => {
    const width = join(import.meta.dirname, '../../../dist/util/width.js');
    const script = `
      const Module = require('node:module');
      const load = Module._load;
      let loads = 0;
      Module._load = function (request, ...rest) {
        if (request === 'string-width') loads++;
        return load.call(this, request, ...rest);
      };
      import(${JSON.stringify(width)}).then((w) => {
        const narrow = w.textWidth('cms/post – ✓ 91 ▁▄█ ⚠ ≥ σ') + w.clipWidth('a'.repeat(50), 10).length;
        const before = loads;
        const wide = w.textWidth('日本') + w.textWidth('🚀');
        console.log(JSON.stringify({ narrow, before, wide, after: loads }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as unknown;
    expect(out).toEqual({ narrow: 35, before: 0, wide: 6, after: 1 });
  });
});

describe('padEndWidth / padStartWidth', () => {
  it('pad to a display width, so the next column starts at the same column whatever the text', () => {
    expect(padEndWidth('日本', 6)).toBe('日本  ');
    expect(padEndWidth('🚀x', 5)).toBe('🚀x  ');
    expect(padEndWidth(`${E_ACUTE}`, 3)).toBe(`${E_ACUTE}  `);
    expect(padStartWidth('日本', 6)).toBe('  日本');
    expect(padStartWidth(FAMILY, 3)).toBe(` ${FAMILY}`);
    expect(padEndWidth('abc', 5)).toBe('abc'.padEnd(5));
    expect(padStartWidth('abc', 5)).toBe('abc'.padStart(5));
  });

  it('measure painted text without its escape codes', () => {
    expect(padEndWidth(red('日本'), 6)).toBe(`${red('日本')}  `);
    expect(padStartWidth(red('12'), 4)).toBe(`  ${red('12')}`);
  });

  it('leave text already as wide as the width (or wider) alone', () => {
    expect(padEndWidth('日本語', 4)).toBe('日本語');
    expect(padStartWidth('abcdef', 3)).toBe('abcdef');
  });
});

describe('clipWidth', () => {
  it('keeps text that fits, and marks a cut with … within the width', () => {
    expect(clipWidth('cms/post', 8)).toBe('cms/post');
    // ASCII: exactly what the reporters' clip did (max - 1 characters, then …).
    expect(clipWidth('cms/post-long', 8)).toBe('cms/pos…');
    expect(clipWidth('日本語テキスト', 14)).toBe('日本語テキスト');
    expect(clipWidth('日本語テキスト', 8)).toBe('日本語…');
    expect(textWidth(clipWidth('日本語テキスト', 8))).toBe(7);
  });

  it('never cuts a grapheme in half: a wide character that does not fit is left out whole', () => {
    // 5 columns: 4 for text, 1 for …; 日本 fills 4.
    expect(clipWidth('日本語', 5)).toBe('日本…');
    // 4 columns: 3 for text; 日 fits, 本 would need 2 more.
    expect(clipWidth('日本語', 4)).toBe('日…');
    expect(clipWidth(`${FAMILY}${FAMILY}${FAMILY}`, 4)).toBe(`${FAMILY}…`);
    expect(clipWidth(`a${E_ACUTE}${E_ACUTE}${E_ACUTE}bc`, 4)).toBe(`a${E_ACUTE}${E_ACUTE}…`);
    expect(clipWidth('🚀🚀🚀', 4)).toBe('🚀…');
    const text = `🚀日${FAMILY}é${E_ACUTE}本`;
    const graphemes = [...new Intl.Segmenter().segment(text)].map((g) => g.segment);
    for (let w = 1; w <= 9; w++) {
      const clipped = clipWidth(text, w);
      expect(textWidth(clipped), `width ${w}`).toBeLessThanOrEqual(w);
      const kept = clipped.slice(0, -1);
      const whole = graphemes.map((_, n) => graphemes.slice(0, n).join(''));
      expect(whole, `width ${w}: ${clipped}`).toContain(kept);
    }
  });

  it('keeps at least the mark when nothing fits', () => {
    expect(clipWidth('日本', 1)).toBe('…');
    expect(clipWidth('abc', 1)).toBe('…');
  });
});
