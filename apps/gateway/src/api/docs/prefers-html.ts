interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  return header.split(',').flatMap((part) => {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim());
    const [type, subtype] = range.toLowerCase().split('/');
    if (!type || !subtype) return [];
    const qParam = params.find((param) => /^q\s*=/i.test(param));
    const q = qParam === undefined ? 1 : Number(qParam.replace(/^q\s*=\s*/i, ''));
    return Number.isFinite(q) && q >= 0 && q <= 1 ? [{ type, subtype, q }] : [];
  });
}

/** The quality the client gives `type/subtype`: that of the most specific range matching it. */
function quality(ranges: MediaRange[], type: string, subtype: string): number {
  let best: { specificity: number; q: number } = { specificity: -1, q: 0 };
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype
        ? 2
        : range.type === type && range.subtype === '*'
          ? 1
          : range.type === '*' && range.subtype === '*'
            ? 0
            : -1;
    if (specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best.q;
}

/**
 * Whether a docs answer should be HTML: only when the Accept header ranks text/html above
 * application/json (RFC 9110 q-values). A browser navigating sends `text/html,...,*\/*;q=0.8`;
 * API clients and the SDK send no Accept, `*\/*` or application/json and keep getting JSON, which
 * also wins a tie.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const html = quality(ranges, 'text', 'html');
  return html > 0 && html > quality(ranges, 'application', 'json');
}
