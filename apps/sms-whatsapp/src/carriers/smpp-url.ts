/** One carrier connection of `SMPP_URL`. */
export interface SmppCarrierConfig {
  /** `name=`, else `host:port`: the carrier's name in outcomes, receipts, logs and metrics. */
  name: string;
  host: string;
  port: number;
  tls: boolean;
  systemId: string;
  password: string;
  systemType: string;
  /** Submits in flight on the bind at most (`window=`, default 10). */
  window: number;
  /** Submits per second at most on the bind (`tps=`, default 100). */
  tps: number;
  /**
   * Submits per second at most from any one sender (`sender_tps=`, default none): what the
   * carrier allows a long code, a toll-free number or an alphanumeric sender.
   */
  senderTps?: number;
  /** Destination prefixes (digits, no `+`) routed to this carrier; empty: the rest. */
  prefixes: string[];
  /** Seconds between our `enquire_link`s (`enquire_link=`, default 30). */
  enquireLinkSeconds: number;
  /** Seconds a `submit_sm` waits for its response (`submit_timeout=`, default 30). */
  submitTimeoutSeconds: number;
  /**
   * How receipts quote the ids of `submit_sm_resp` (`receipt_ids=`): `same` (default), or
   * `decimal` / `hex` when the carrier answers in one base and quotes in the other.
   */
  receiptIds: 'same' | 'hex' | 'decimal';
}

const PARAMETERS = new Set([
  'name',
  'window',
  'tps',
  'sender_tps',
  'prefixes',
  'system_type',
  'enquire_link',
  'submit_timeout',
  'receipt_ids',
]);

function integer(params: URLSearchParams, key: string, fallback: number, max: number): number {
  const raw = params.get(key);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw new Error(`has ${key}=${JSON.stringify(raw)}: must be an integer from 1 to ${max}`);
  return Number(raw);
}

/** `sender_tps`: a decimal, so that replicas can share a cap of 1 a second (0.5 each). */
function rate(raw: string): number {
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value < 0.01 || value > 100_000)
    throw new Error(`has sender_tps=${JSON.stringify(raw)}: must be a number from 0.01 to 100000`);
  return value;
}

function decoded(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new Error(`has a badly percent-encoded ${what}`);
  }
}

function carrier(entry: string): SmppCarrierConfig {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error('must be smpp://<system_id>:<password>@<host>:<port> URLs, comma-separated');
  }
  if (url.protocol !== 'smpp:' && url.protocol !== 'ssmpp:')
    throw new Error(`must use smpp:// or ssmpp:// (got ${url.protocol}//)`);
  if (!url.hostname) throw new Error('needs a host');
  if (!url.username) throw new Error(`needs a system_id (smpp://<system_id>:<password>@...)`);
  if (url.pathname && url.pathname !== '/') throw new Error('takes no path');
  const params = url.searchParams;
  const unknown = [...params.keys()].find((key) => !PARAMETERS.has(key));
  if (unknown) throw new Error(`has an unknown parameter "${unknown}"`);
  const tls = url.protocol === 'ssmpp:';
  const port = url.port ? Number(url.port) : tls ? 3550 : 2775;
  if (port < 1) throw new Error('needs a port from 1 to 65535');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const systemId = decoded(url.username, 'system_id');
  if (systemId.length > 15) throw new Error('has a system_id longer than 15 characters');
  const password = decoded(url.password, 'password');
  if (password.length > 8) throw new Error('has a password longer than 8 characters');
  const systemType = params.get('system_type') ?? '';
  if (systemType.length > 12) throw new Error('has a system_type longer than 12 characters');
  const prefixes = params
    .getAll('prefixes')
    .flatMap((value) => value.split(';'))
    .map((prefix) => prefix.trim().replace(/^\+/, ''))
    .filter(Boolean);
  const badPrefix = prefixes.find((prefix) => !/^\d{1,15}$/.test(prefix));
  if (badPrefix !== undefined) throw new Error(`has a bad prefix "${badPrefix}": digits only`);
  const receiptIds = params.get('receipt_ids') ?? 'same';
  if (receiptIds !== 'same' && receiptIds !== 'hex' && receiptIds !== 'decimal')
    throw new Error(`has receipt_ids=${JSON.stringify(receiptIds)}: must be same, hex or decimal`);
  const name = params.get('name')?.trim() || `${host}:${port}`;
  return {
    name,
    host,
    port,
    tls,
    systemId,
    password,
    systemType,
    window: integer(params, 'window', 10, 1000),
    tps: integer(params, 'tps', 100, 100_000),
    ...(params.has('sender_tps') ? { senderTps: rate(params.get('sender_tps') as string) } : {}),
    prefixes,
    enquireLinkSeconds: integer(params, 'enquire_link', 30, 3600),
    submitTimeoutSeconds: integer(params, 'submit_timeout', 30, 600),
    receiptIds,
  };
}

/**
 * Parses `SMPP_URL`: comma-separated `smpp://<system_id>:<password>@<host>:<port>` entries
 * (`ssmpp://` for TLS; credentials percent-encoded), each with optional query parameters
 * `name`, `window`, `tps`, `sender_tps`, `prefixes` (digits without `+`, separated by `;`, or the parameter
 * repeated), `system_type`, `enquire_link` and `submit_timeout` (seconds), `receipt_ids`. Throws one `Error`
 * whose message completes "SMPP_URL ..." (the config loader names the variable).
 */
export function parseSmppUrl(raw: string): SmppCarrierConfig[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('names no carrier');
  const carriers = entries.map((entry, index) => {
    try {
      return carrier(entry);
    } catch (err) {
      throw new Error(`entry ${index + 1} ${(err as Error).message}`);
    }
  });
  const names = carriers.map((config) => config.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) throw new Error(`names carrier "${twice}" twice (give each a distinct name=)`);
  const prefixes = carriers.flatMap((config) => config.prefixes);
  const shared = prefixes.find((prefix, i) => prefixes.indexOf(prefix) !== i);
  if (shared) throw new Error(`routes prefix ${shared} to two carriers`);
  return carriers;
}

/**
 * The carrier a destination goes to: the one with its longest matching prefix, else the first
 * without prefixes (the rest); undefined when every carrier has prefixes and none matches.
 * `prefixesOf` reads a carrier's prefixes (a config's own, or a bind's config's).
 */
export function carrierFor<T>(
  carriers: readonly T[],
  to: string,
  prefixesOf: (carrier: T) => readonly string[],
): T | undefined {
  const digits = to.replace(/^\+/, '');
  let best: T | undefined;
  let bestLength = -1;
  for (const carrier of carriers)
    for (const prefix of prefixesOf(carrier))
      if (digits.startsWith(prefix) && prefix.length > bestLength) {
        best = carrier;
        bestLength = prefix.length;
      }
  return best ?? carriers.find((carrier) => prefixesOf(carrier).length === 0);
}
