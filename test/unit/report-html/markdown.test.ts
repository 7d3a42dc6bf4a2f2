import { describe, expect, it } from 'vitest';
import { renderNotesMarkdown } from '../../../src/report/html/markdown.js';
import { NOTES_MD } from './fixture.js';

describe('renderNotesMarkdown', () => {
  it('renders GitHub-flavoured markdown', () => {
    const html = renderNotesMarkdown(
      '# Title\n\n- [x] seeded\n- `code`\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n```sh\nls\n```',
    );
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li><input checked disabled type="checkbox"> seeded</li>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<th align="center">b</th>');
    expect(html).toContain('<pre><code class="language-sh">ls\n</code></pre>');
  });

  it('sanitizes raw HTML and unsafe links in the notes', () => {
    const html = renderNotesMarkdown(NOTES_MD);
    expect(html).toContain('<h2>Workspace state</h2>');
    expect(html).toContain(
      '<a href="https://example.com/docs" rel="noopener noreferrer nofollow" target="_blank">docs</a>',
    );
    expect(html).toContain('bad link');
    expect(html).not.toMatch(/<script|<img|onerror|onclick|javascript|pwned-marker/i);
    expect(html).toContain('<div>plain div text</div>');
  });

  it('shows code spans with markup as text', () => {
    expect(renderNotesMarkdown('`<script>alert(1)</script>`')).toBe(
      '<p><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></p>\n',
    );
  });
});
