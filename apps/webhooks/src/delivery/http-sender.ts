import { isIP } from 'node:net';
import { hostOf, isPrivateAddress, resolveAll } from '../endpoints/url-policy';
import type { HostResolver } from '../endpoints/url-policy';
import { OriginPools } from './origin-pools';
import { postBody } from './post-body';
import type { PostAnswer } from './post-body';

export interface SendOutcome {
  /** The receiver answered 2xx. */
  ok: boolean;
  /** Null when nothing was answered (time-out, refused connection, refused address). */
  statusCode: number | null;
  /** The first bytes of the answer, as text. */
  body?: string;
  durationMs: number;
  /** Why nothing was answered. */
  error?: string;
  /**
   * What kind of failure left nothing answered: our rules refused the address (`policy`, which
   * says nothing of the receiver's capacity), the connection failed, or the time ran out.
   */
  failure?: 'policy' | 'connection' | 'timeout';
  /** The receiver's Retry-After header, as sent. */
  retryAfter?: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  resolver: HostResolver;
  maxBodyBytes: number;
}

const USER_AGENT = 'Switchboard-Webhooks/1.0';

/** Every delivery's connections, kept alive per endpoint origin and checked address. */
const pools = new OriginPools();

/**
 * POSTs one signed JSON body and reports what the receiver answered, never throwing. The
 * address connected to is the one checked: the host is resolved here and the connection goes
 * to the first address that passes the private-address rule, so a name that changed to a
 * private address since the endpoint was saved (DNS rebinding) is refused at delivery too.
 * Connections are undici's keep-alive pools: about half the CPU per request of `node:http`'s
 * client on this path (ADR 20), driven through its low-level dispatch (ADR 21).
 */
export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendOutcome> {
  const started = Date.now();
  const failed = (error: string, failure: SendOutcome['failure'] = 'policy'): SendOutcome => ({
    ok: false,
    statusCode: null,
    durationMs: Date.now() - started,
    error,
    failure,
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failed('the endpoint URL is not valid');
  }
  const https = target.protocol === 'https:';
  if (!https && !(options.allowPrivate && target.protocol === 'http:'))
    return failed('the endpoint URL must use https');
  const host = hostOf(target);
  let address = host;
  if (!options.allowPrivate) {
    const candidates = isIP(host) ? [host] : await resolveAll(host, options.resolver);
    if (candidates === 'failed') return failed(`could not resolve ${host}`);
    if (candidates.length === 0) return failed(`${host} does not resolve`);
    const allowed = candidates.filter((candidate) => !isPrivateAddress(candidate));
    if (allowed.length === 0) return failed(`refused: ${host} resolves to a private address`);
    address = allowed[0];
  }
  const pool = pools.get(target.origin, host, address, options.timeoutMs);
  let answer: PostAnswer;
  try {
    answer = await postBody(pool, {
      path: `${target.pathname}${target.search}`,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body,
      timeoutMs: options.timeoutMs,
      maxBodyBytes: options.maxBodyBytes,
    });
  } catch (err) {
    const { name, code, message } = err as NodeJS.ErrnoException;
    return name === 'TimeoutError' || code === 'UND_ERR_CONNECT_TIMEOUT'
      ? failed(`no answer within ${options.timeoutMs} ms`, 'timeout')
      : failed(`could not connect: ${code ?? message}`, 'connection');
  }
  const { statusCode } = answer;
  const retryAfter = answer.headers['retry-after'];
  return {
    ok: statusCode >= 200 && statusCode < 300,
    statusCode,
    ...(answer.body ? { body: answer.body } : {}),
    durationMs: Date.now() - started,
    ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
  };
}
