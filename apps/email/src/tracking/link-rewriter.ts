/** A link the message's HTML carries, as it will be tracked. */
export interface TrackedLink {
  /** The destination exactly as the message meant it (entities decoded). */
  url: string;
  /** `data-link-name` (or SparkPost's `data-msys-linkname`) of the anchor; null without one. */
  name: string | null;
}

/**
 * A message's HTML cut once around its tracked links (and where the open pixel goes), so each
 * recipient's copy is only the signing of its tokens and one join: `parts` around `links`
 * (parts.length = links.length + 1, or + 2 with the pixel slot at the end of `links`' slots).
 */
export interface TrackableHtml {
  parts: string[];
  links: TrackedLink[];
  /** Whether the last slot is the open pixel. */
  pixel: boolean;
}

/**
 * An anchor's start tag; a `>` inside a quoted attribute value does not end it. No `<` inside:
 * a try that finds none of its own `>` stops at the next tag, so unclosed tags cost a linear
 * scan, not one to the end of the body per tag (an anchor with `<` in a value stays untracked).
 */
const ANCHOR = /<a(?=[\s/>])(?:[^<>"']|"[^"<]*"|'[^'<]*')*>/gi;
const BODY_END = /<\/body\s*>/gi;
/** One attribute of a start tag: its name and its value, quoted either way or not at all. */
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const HTTP = /^https?:\/\//i;
/**
 * Longer destinations (in UTF-8 bytes) stay as written: their token would pass the router's parameter limit
 * (8,000 characters; the JSON claim in base64 is about 4/3 of the URL, plus the ids and name).
 */
const MAX_TRACKED_URL = 4_000;

/**
 * Cuts `html` for tracking: with `clicks`, every anchor's http(s) `href` becomes a slot
 * (mailto:, tel:, in-page anchors, other schemes, links already on `origin`'s tracking or
 * unsubscribe routes, and anchors marked `data-msys-clicktrack="0"` stay as written); with
 * `opens`, a slot for the pixel before `</body>` (or at the end). URLs over 4,000 characters stay
 * as written too.
 */
export function trackableHtml(
  html: string,
  origin: string,
  options: { opens: boolean; clicks: boolean },
): TrackableHtml {
  const parts: string[] = [];
  const links: TrackedLink[] = [];
  let from = 0;
  if (options.clicks) {
    const own = [`${origin}/t/`, `${origin}/u/`].map((prefix) => prefix.toLowerCase());
    for (const match of html.matchAll(ANCHOR)) {
      const tag = match[0];
      const found = hrefOf(tag);
      if (!found) continue;
      const url = decodeEntities(found.value).trim();
      const lowered = url.toLowerCase();
      if (!HTTP.test(url) || Buffer.byteLength(url) > MAX_TRACKED_URL) continue;
      if (own.some((prefix) => lowered.startsWith(prefix))) continue;
      if (found.attributes.get('data-msys-clicktrack') === '0') continue;
      const start = (match.index ?? 0) + found.start;
      parts.push(html.slice(from, start));
      links.push({ url, name: linkNameOf(found.attributes) });
      from = start + found.length;
    }
  }
  const rest = html.slice(from);
  if (!options.opens) return { parts: [...parts, rest], links, pixel: false };
  // The last </body>: one scan, where a lookahead for a later one rescanned the rest each time.
  let at = rest.length;
  for (const match of rest.matchAll(BODY_END)) at = match.index ?? at;
  return { parts: [...parts, rest.slice(0, at), rest.slice(at)], links, pixel: true };
}

/**
 * One recipient's HTML: each link slot gets `linkUrl(link)` (a tracked URL: no character that
 * needs escaping in an attribute), the pixel slot an image of `pixelUrl`.
 */
export function personalisedHtml(
  trackable: TrackableHtml,
  linkUrl: (link: TrackedLink) => string,
  pixelUrl?: string,
): string {
  let html = trackable.parts[0];
  trackable.links.forEach((link, index) => {
    html += `"${linkUrl(link)}"` + trackable.parts[index + 1];
  });
  if (!trackable.pixel) return html;
  const last = trackable.parts.length - 1;
  return html + pixelTag(pixelUrl ?? '') + trackable.parts[last];
}

/** The 1x1 open pixel: invisible, and no layout of its own. */
export function pixelTag(url: string): string {
  return `<img src="${url}" width="1" height="1" alt="" border="0" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`;
}

/** The `href` attribute of a start tag: where its value (quotes included) starts and how long. */
function hrefOf(
  tag: string,
): { value: string; start: number; length: number; attributes: Map<string, string> } | undefined {
  const attributes = new Map<string, string>();
  let href: { value: string; start: number; length: number } | undefined;
  ATTRIBUTE.lastIndex = 2;
  for (let match = ATTRIBUTE.exec(tag); match; match = ATTRIBUTE.exec(tag)) {
    const name = match[1].toLowerCase();
    const value = match[2] ?? match[3] ?? match[4];
    if (value === undefined || attributes.has(name)) continue;
    attributes.set(name, value);
    // The first href counts, as in browsers; its value is what the slot replaces.
    if (name === 'href') {
      const raw = match[0];
      const valueAt = raw.length - (match[4] ?? value).length - (match[4] === undefined ? 2 : 0);
      href = { value, start: match.index + valueAt, length: raw.length - valueAt };
    }
  }
  return href && { ...href, attributes };
}

function linkNameOf(attributes: Map<string, string>): string | null {
  const name = attributes.get('data-link-name') ?? attributes.get('data-msys-linkname');
  const decoded = name === undefined ? '' : decodeEntities(name).trim();
  return decoded === '' ? null : decoded.slice(0, 200);
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The character references an attribute value may carry in a URL or a name. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);?/gi, (whole, ref: string) => {
    const lowered = ref.toLowerCase();
    if (lowered in NAMED) return NAMED[lowered];
    const code = lowered.startsWith('#x')
      ? parseInt(lowered.slice(2), 16)
      : parseInt(lowered.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
