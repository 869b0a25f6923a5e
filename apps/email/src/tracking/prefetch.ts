/**
 * Whether an open was fetched by an inbox's privacy or image proxy rather than shown to a
 * person (the SDK's `is_prefetched`): Gmail's image proxy says so in its user agent
 * (`... (via ggpht.com GoogleImageProxy)`), Yahoo's likewise (`YahooMailProxy`); Apple Mail
 * Privacy Protection fetches every image of every message on delivery with the bare
 * `Mozilla/5.0` and nothing after it, which no browser or mail client sends as its own.
 */
export function isPrefetched(userAgent: string | null): boolean {
  if (!userAgent) return false;
  const agent = userAgent.trim();
  return agent === 'Mozilla/5.0' || PROXY.test(agent);
}

/** The inbox proxies' user agents, as a pattern (the client breakdown reads them too). */
export const PROXY_AGENTS = 'GoogleImageProxy|ggpht\\.com|YahooMailProxy';
const PROXY = new RegExp(PROXY_AGENTS, 'i');
