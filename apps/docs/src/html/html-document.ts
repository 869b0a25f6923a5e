import { createHash } from 'node:crypto';
import { pageUrl } from '../content/doc-page';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text and attribute values into HTML: everything that could open markup is escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const STYLE = [
  'body{font:16px/1.55 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:0 1rem 3rem;color:#1b1f24}',
  'header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 0;border-bottom:1px solid #d0d7de}',
  'header a{font-weight:600}a{color:#0b5cad}code,pre{font:14px/1.45 ui-monospace,monospace;background:#f3f4f6}',
  'pre{padding:.75rem;overflow:auto}code{padding:0 .2em}pre code{padding:0}',
  'table{border-collapse:collapse}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left}',
  'mark{background:#fff3b0}.snippet{color:#444;margin:.2rem 0 1rem}',
].join('');

/**
 * Nothing but the page itself: no scripts, no frames, no external loads; the one inline style is
 * allowed by its hash; forms submit only to this origin (the search box).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The frame of every docs page: a header linking home, with the search box. `body` is HTML. */
export function htmlDocument(title: string, body: string, query = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Switchboard docs</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<a href="${escapeHtml(pageUrl('index'))}">Switchboard docs</a>
<form action="/v1/docs/search" method="get" role="search">
<input type="search" name="q" value="${escapeHtml(query)}" aria-label="Search the docs" required>
<button type="submit">Search</button>
</form>
</header>
<main>
${body}
</main>
</body>
</html>
`;
}
