import MarkdownIt from 'markdown-it';
import { AnchorRegistry } from '../content/markdown-sections';

/**
 * Markdown to HTML for the browser view. markdown-it rather than a renderer of our own: it follows
 * CommonMark with GFM tables (the guides use both), escapes raw HTML when `html` is off, and
 * refuses `javascript:`, `vbscript:`, `file:` and `data:` link targets, which a hand-written
 * renderer would have to get right itself. Typographer and linkify stay off: the text is shown as
 * written.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/**
 * Headings get the anchors search results link to (`url` = `...#anchor`), handed out in the same
 * order and by the same rule as the sections were split for the index.
 */
markdown.core.ruler.push('heading_anchors', (state) => {
  const anchors = new AnchorRegistry();
  state.tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const inline = state.tokens[index + 1];
    token.attrSet('id', anchors.next(inline?.content ?? ''));
  });
});

export function markdownToHtml(source: string): string {
  return markdown.render(source);
}
