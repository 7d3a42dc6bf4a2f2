import { describe, expect, it } from 'vitest';
import { decodeEntities, safeLink, sanitizeHtml } from '../../../src/report/html/sanitize.js';

const REL = ' rel="noopener noreferrer nofollow" target="_blank"';

describe('sanitizeHtml: dangerous markup', () => {
  it.each([
    ['<script>alert(1)</script>', ''],
    ['<SCRIPT SRC=//x.example/x.js></SCRIPT>after', 'after'],
    ['<script>never closed', ''],
    ['<style>@import url(//x.example/a.css)</style>', ''],
    ['<iframe src="https://x.example"></iframe>', ''],
    ['<object data="x.swf"><embed src="x.swf"></object>', ''],
    ['<svg onload=alert(1)><script>alert(1)</script></svg>ok', 'ok'],
    ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', ''],
    ['<template><img src=x onerror=alert(1)></template>', ''],
    ['<textarea><img src=x onerror=alert(1)></textarea>', ''],
    ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', '"&gt;'],
    ['<!-- <script>alert(1)</script> -->x', 'x'],
    ['<!--><script>alert(1)</script>-->', ''],
    ['<!--->x<script>alert(1)</script>', ''],
    ['<![CDATA[<script>alert(1)</script>]]>', 'alert(1)]]&gt;'],
    ['<base href="https://x.example/">', ''],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ['<link rel=stylesheet href=//x.example/a.css>', ''],
    ['<form action=//x.example><button formaction=javascript:alert(1)>go</button></form>', 'go'],
  ])('%s → %s', (input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });

  it('drops event handlers, styles, ids and classes from kept tags', () => {
    expect(sanitizeHtml('<div onclick="x()" style="color:red" id="y" class="z" data-x=1>t</div>')).toBe(
      '<div>t</div>',
    );
    expect(sanitizeHtml('<details open ontoggle=alert(1)><summary>s</summary></details>')).toBe(
      '<details open><summary>s</summary></details>',
    );
    expect(sanitizeHtml('<p/onmouseover=alert(1)>x</p>')).toBe('<p>x</p>');
    expect(sanitizeHtml('<b """ onclick=alert(1)>x</b>')).toBe('<b>x</b>');
  });

  it('drops images that are not inline raster data', () => {
    expect(sanitizeHtml('<img src=x onerror=alert(1)>')).toBe('');
    expect(sanitizeHtml('<img/src="x"/onerror=alert(1)>')).toBe('');
    expect(sanitizeHtml('<img src="https://x.example/t.png" alt="chart">')).toBe('chart');
    expect(sanitizeHtml('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).toBe('');
    expect(sanitizeHtml('<img src="data:image/png;base64,iVBORw0=" alt="a" onerror="x">')).toBe(
      '<img src="data:image/png;base64,iVBORw0=" alt="a">',
    );
  });

  it('keeps only checkbox inputs, always disabled', () => {
    expect(sanitizeHtml('<input type="text" value="x" autofocus onfocus=alert(1)>')).toBe('');
    expect(sanitizeHtml('<input type="checkbox" checked onclick=x>')).toBe(
      '<input type="checkbox" checked disabled>',
    );
  });

  it('checks numeric and enumerated attributes', () => {
    expect(sanitizeHtml('<table><tr><td colspan="2 onmouseover=x" align=center>x</td></tr></table>')).toBe(
      '<table><tr><td align="center">x</td></tr></table>',
    );
    expect(sanitizeHtml('<code class="language-ts">x</code><code class="x onload">y</code>')).toBe(
      '<code class="language-ts">x</code><code>y</code>',
    );
  });
});

describe('sanitizeHtml: links', () => {
  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'jav&#x09;ascript:alert(1)',
    'jav&#9;ascript:alert(1)',
    'jav\tascript:alert(1)',
    'java\u0000script:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6A;avascript:alert(1)',
    'javascript&colon;alert(1)',
    'javascript&#58;alert(1)',
    '\u200bjavascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'file:///etc/passwd',
    'x:y',
  ])('refuses %j and keeps the text', (href) => {
    expect(sanitizeHtml(`<a href="${href}">x</a>`)).toBe('x');
  });

  it('keeps http(s), mailto and relative links, escaped', () => {
    expect(sanitizeHtml('<a href="https://ok.example/?a=1&b=2" onclick="x">ok</a>')).toBe(
      `<a href="https://ok.example/?a=1&#38;b=2"${REL}>ok</a>`,
    );
    expect(sanitizeHtml('<a href="mailto:a@b.example">m</a>')).toBe('<a href="mailto:a@b.example">m</a>');
    expect(sanitizeHtml('<a href="#section">s</a>')).toBe('<a href="#section">s</a>');
    expect(sanitizeHtml('<a href="scenarios/x/claude.json">d</a>')).toBe(
      '<a href="scenarios/x/claude.json">d</a>',
    );
    expect(sanitizeHtml('<a href="/a:b">p</a>')).toBe('<a href="/a:b">p</a>');
  });

  it('escapes attribute values so they cannot break out', () => {
    expect(sanitizeHtml(`<a href="https://x.example" title='"><script>alert(1)</script>'>t</a>`)).toBe(
      `<a href="https://x.example" title="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;"${REL}>t</a>`,
    );
  });

  it('safeLink decides on the string the browser will see', () => {
    expect(safeLink(decodeEntities('jav&#x0A;ascript:x'))).toBeNull();
    expect(safeLink('https://x.example')).toBe('https://x.example');
    expect(safeLink('')).toBeNull();
  });
});

describe('sanitizeHtml: text and structure', () => {
  it('escapes text and keeps well-formed character references', () => {
    expect(sanitizeHtml('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    expect(sanitizeHtml('&lt;script&gt; &copy; &#169; &amp')).toBe('&lt;script&gt; &copy; &#169; &amp;amp');
  });

  it('treats incomplete tags as text', () => {
    expect(sanitizeHtml('<a href="x')).toBe('&lt;a href="x');
    expect(sanitizeHtml('1 <2')).toBe('1 &lt;2');
    expect(sanitizeHtml('<scr<script>ipt>alert(1)</script>')).toBe('ipt&gt;alert(1)');
  });

  it('balances tags', () => {
    expect(sanitizeHtml('<p>unclosed <b>bold')).toBe('<p>unclosed <b>bold</b></p>');
    expect(sanitizeHtml('</div></p>stray')).toBe('stray');
    expect(sanitizeHtml('<ul><li>a<li>b</ul>')).toBe('<ul><li>a<li>b</li></li></ul>');
  });

  it('keeps harmless formatting', () => {
    const html =
      '<h2>T</h2><p><strong>b</strong> <em>i</em> <code>c</code></p><pre><code>x</code></pre><hr><br>';
    expect(sanitizeHtml(html)).toBe(html);
  });
});

describe('sanitizeHtml: invariants over generated input', () => {
  const PIECES = [
    '<',
    '>',
    '/',
    '=',
    '"',
    "'",
    ' ',
    '\t',
    '\n',
    'a',
    'img',
    'script',
    'svg',
    'style',
    'p',
    'b',
    'div',
    'iframe',
    ' href=',
    ' src=',
    ' onerror=',
    ' onclick=',
    ' style=',
    'javascript:',
    'java&#x09;script:',
    '&#106;',
    '&colon;',
    'alert(1)',
    'https://x.example',
    'data:image/png;base64,AA',
    '<!--',
    '-->',
    '<!',
    '&',
    '&amp;',
    ';',
    'x',
  ];
  const TAG = /<(\/?)([a-z0-9]+)((?: [a-z]+(?:="[^"<>]*")?)*)>/g;
  const ALLOWED = new Set([
    'a',
    'b',
    'div',
    'p',
    'img',
    'br',
    'hr',
    'li',
    'ul',
    'code',
    'pre',
    'em',
    'strong',
    'span',
  ]);

  it('only ever emits allowed tags with quoted, safe attributes, and is idempotent', () => {
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      let input = '';
      const len = 1 + rand(30);
      for (let k = 0; k < len; k++) input += PIECES[rand(PIECES.length)];
      const out = sanitizeHtml(input);
      const stripped = out.replace(TAG, (_m, _slash: string, name: string, attrs: string) => {
        expect(ALLOWED.has(name) || name === 'a').toBe(true);
        expect(attrs).not.toMatch(/ on[a-z]+=|style=/);
        expect(attrs).not.toMatch(/javascript|&colon;/i);
        return '';
      });
      // Outside the tags nothing can start markup.
      expect(stripped).not.toContain('<');
      expect(sanitizeHtml(out)).toBe(out);
    }
  });

  it('handles large input in linear time', () => {
    const big = '<p>ok <b>x</b> &amp; <img src=x onerror=1> text</p>\n'.repeat(5_000);
    const out = sanitizeHtml(big);
    expect(out).not.toContain('onerror');
    expect(out.length).toBeGreaterThan(100_000);
  });
});
