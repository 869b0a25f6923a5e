import { env } from './env-schema';

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

/**
 * PUBLIC_URL for a service that builds links people or webhook subscribers follow to the
 * gateway (tracked links and unsubscribe links in mail, inbound WhatsApp media), with PORT for
 * its default when unset.
 */
export const publicUrlEnv = {
  PUBLIC_URL: {
    ...env.optionalString({
      description:
        'public origin (http:// or https://, optionally with a path) of the gateway that links in mail (open pixels, tracked and unsubscribe links) and in webhooks (inbound WhatsApp media) point to; unset: http://127.0.0.1:$PORT',
    }),
    kind: 'url' as const,
    parse: parsePublicUrl,
  },
  PORT: env.int({
    default: 8080,
    min: 0,
    max: 65535,
    description: "the gateway's port, for PUBLIC_URL's default",
  }),
};

/** The origin links are built on: PUBLIC_URL, else the gateway on this host's PORT. */
export function publicOriginOf(config: { PUBLIC_URL?: string; PORT: number }): string {
  return config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`;
}
