import type { UnsubscribePageReply } from '@switchboard/contracts';

/**
 * The unsubscribe pages: plain HTML that works without scripts (none are allowed), readable on a
 * phone. The confirmation's button POSTs the form back to the same URL; the GET that shows it
 * never unsubscribes, since mail scanners and link previews follow every link.
 */
export function confirmationPage(page: UnsubscribePageReply): string {
  return layout(
    'Unsubscribe',
    `<h1>Unsubscribe?</h1>
<p>Stop marketing mail from <strong>${escapeHtml(page.sender_domain)}</strong> to <strong>${escapeHtml(page.masked_address)}</strong>.</p>
<form method="post">
<input type="hidden" name="unsubscribe" value="confirm">
<button type="submit">Unsubscribe</button>
</form>
<p class="note">Receipts and other mail you asked for keep coming.</p>`,
  );
}

export function unsubscribedPage(page: UnsubscribePageReply): string {
  return layout(
    'Unsubscribed',
    `<h1>You are unsubscribed</h1>
<p><strong>${escapeHtml(page.masked_address)}</strong> gets no more marketing mail from <strong>${escapeHtml(page.sender_domain)}</strong>.</p>
<p class="note">Receipts and other mail you asked for keep coming.</p>`,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}button{font-size:1rem;padding:.6rem 1.2rem;cursor:pointer}.note{color:#666;font-size:.9rem}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
