// Every relative link in README.md and docs/*.md names a file that exists and, with a #fragment, a heading
// (GitHub's anchor for it) or an explicit <a id> in that file: pages move and sections split, and a
// link left behind is how a reader loses the page.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const h = /^#{1,6} (.*)$/.exec(line);
    if (h) {
      const text = h[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
      const base = text
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\- _]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a id="([^"]+)"/g)) out.add(m[1]!);
  }
  return out;
}

/** Relative links outside code: [text](target), target without a scheme. */
function linksOf(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target);
    }
  }
  return out;
}

describe('links between the docs', () => {
  it.each(PAGES)('%s: every relative link resolves', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      const [path, fragment] = link.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path);
      if (!existsSync(file)) {
        broken.push(`${link} (no ${relative(ROOT, file)})`);
        continue;
      }
      if (fragment && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(fragment))
        broken.push(`${link} (no such heading in ${relative(ROOT, file)})`);
    }
    expect(broken).toEqual([]);
  });

  it('computes the anchors GitHub gives headings', () => {
    const a = anchorsOf(
      '# Performance\n## The full runs at 04:00 and 04:22 UTC (seventh round)\n## Why `x` is, and why\n## Why x is and why\n```\n# not a heading\n```\n<a id="file-creation"></a>',
    );
    expect([...a]).toEqual([
      'performance',
      'the-full-runs-at-0400-and-0422-utc-seventh-round',
      'why-x-is-and-why',
      'why-x-is-and-why-1',
      'file-creation',
    ]);
  });
});
