const PROBLEM = 'must be an http:// or https:// URL without query, fragment or credentials';

/**
 * PUBLIC_URL as the base links are built on: scheme and host lower-cased by URL parsing, any path
 * prefix kept, no trailing slash (paths are appended to it). Its scheme is what clients see, so an
 * https:// value makes every advertised URL secure (`wss://` for realtime) even though the gateway
 * itself listens on plain HTTP behind the TLS-terminating proxy.
 */
export function parsePublicUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(PROBLEM);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(PROBLEM);
  if (url.search || url.hash || url.username || url.password) throw new Error(PROBLEM);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
