import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { hostOf, isPrivateAddress, resolveAll } from '../endpoints/url-policy';
import type { HostResolver } from '../endpoints/url-policy';

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

/**
 * POSTs one signed JSON body and reports what the receiver answered, never throwing. The
 * address connected to is the one checked: the host is resolved here and the connection goes
 * to the first address that passes the private-address rule, so a name that changed to a
 * private address since the endpoint was saved (DNS rebinding) is refused at delivery too.
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
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    const family = isIP(address) || 4;
    if ((lookupOptions as { all?: boolean }).all)
      (callback as (err: null, addresses: LookupAddress[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Promise<SendOutcome>((resolve) => {
    const send = https ? httpsRequest : httpRequest;
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': USER_AGENT,
        },
        // Resolved and checked above (or allowed as is): connect there and nowhere else.
        lookup: isIP(host) ? undefined : pinned,
        servername: https && !isIP(host) ? host : undefined,
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (kept < options.maxBodyBytes) {
            chunks.push(chunk.subarray(0, options.maxBodyBytes - kept));
            kept += Math.min(chunk.length, options.maxBodyBytes - kept);
          }
        });
        const finish = () => {
          const statusCode = res.statusCode ?? null;
          const text = Buffer.concat(chunks).toString('utf8');
          const retryAfter = res.headers['retry-after'];
          resolve({
            ok: statusCode !== null && statusCode >= 200 && statusCode < 300,
            statusCode,
            ...(text ? { body: text } : {}),
            durationMs: Date.now() - started,
            ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
          });
        };
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error('timeout')), options.timeoutMs);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      resolve(
        err.message === 'timeout'
          ? failed(`no answer within ${options.timeoutMs} ms`, 'timeout')
          : failed(`could not connect: ${err.code ?? err.message}`, 'connection'),
      );
    });
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
