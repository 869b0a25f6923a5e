import { splitSections } from '../content/markdown-sections';
import { markdownToHtml } from './markdown-html';

describe(markdownToHtml.name, () => {
  it('escapes raw HTML instead of passing it through', () => {
    const html = markdownToHtml(
      '# Title\n\n<script>alert(1)</script>\n\nA <img src=x onerror=alert(1)> b',
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('does not link javascript:, vbscript: or data: targets', () => {
    const html = markdownToHtml(
      '[a](javascript:alert(1)) [b](vbscript:x) [c](data:text/html,x) [d](/v1/docs/pages?slug=index)',
    );
    expect(html).not.toMatch(/href="(javascript|vbscript|data):/);
    expect(html).toContain('<a href="/v1/docs/pages?slug=index">d</a>');
  });

  it('gives headings the anchors search results link to, repeated ones numbered', () => {
    const markdown =
      '# Retries\n\nintro\n\n## When to retry `409`?\n\ntext\n\n## Retries\n\n```\n## not a heading\n```\n';
    const html = markdownToHtml(markdown);
    const anchors = splitSections(markdown, 'x').sections.map((section) => section.anchor);
    expect(anchors).toEqual(['retries', 'when-to-retry-409', 'retries-1']);
    for (const anchor of anchors) expect(html).toContain(` id="${anchor}"`);
    expect(html).not.toContain('<h2 id="not-a-heading"');
  });

  it('renders the GFM tables the guides use', () => {
    expect(markdownToHtml('| a | b |\n|---|---|\n| 1 | 2 |\n')).toContain('<td>2</td>');
  });
});
