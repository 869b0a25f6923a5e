import { GraphError } from './whatsapp-graph';

/**
 * Meta codes that mean "later", whatever the HTTP status they come with: unknown/temporary
 * errors (1, 2, 131000, 131016, 133004) and rate limits (4, 17, 32, 613, 80007, 130429, 131056).
 */
const TEMPORARY_META_CODES = new Set([
  1, 2, 4, 17, 32, 613, 80007, 130429, 131000, 131016, 131056, 133004,
]);

/** The message of the error every call throws while `WHATSAPP_ACCESS_TOKEN` is unset. */
export const GRAPH_TOKEN_UNSET =
  "WHATSAPP_ACCESS_TOKEN is unset: this deployment cannot call Meta's Graph API";

/** Whether a `GraphError` says the platform has no Graph token (the areas answer 503). */
export function isGraphTokenUnset(error: unknown): boolean {
  return error instanceof GraphError && error.status === 0 && error.message === GRAPH_TOKEN_UNSET;
}

/** `Retry-After` in ms: delay-seconds or an HTTP date. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

interface MetaErrorBody {
  error?: { message?: unknown; code?: unknown; error_subcode?: unknown };
}

/**
 * Turns a non-2xx answer into a `GraphError` keeping Meta's `code` and `error_subcode`. Only
 * Meta's own `error.message` is kept: never the request (which may carry message text) nor the URL.
 */
export async function graphErrorOf(response: Response, label: string): Promise<GraphError> {
  let body: MetaErrorBody = {};
  try {
    body = (await response.json()) as MetaErrorBody;
  } catch {
    // Not Meta's envelope (a proxy's page): the status alone says what happened.
  }
  const meta = body?.error ?? {};
  const code = typeof meta.code === 'number' ? meta.code : null;
  const subcode = typeof meta.error_subcode === 'number' ? meta.error_subcode : null;
  const text = typeof meta.message === 'string' ? meta.message.slice(0, 300) : response.statusText;
  const temporary =
    response.status === 429 ||
    response.status >= 500 ||
    (code !== null && TEMPORARY_META_CODES.has(code));
  const codes = code === null ? '' : ` (code ${code}${subcode === null ? '' : `/${subcode}`})`;
  return new GraphError(
    `Meta answered ${response.status} to ${label}: ${text}${codes}`,
    temporary,
    response.status,
    code,
    subcode,
    retryAfterMs(response.headers.get('retry-after')),
  );
}

/** Whether fetch gave up on its `AbortSignal.timeout` (a DOMException: not always `instanceof Error`). */
export function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** A call that got no answer: refused or reset connection, DNS, or the time-out. */
export function unreachable(error: unknown, label: string, timeoutMs: number): GraphError {
  if (isTimeout(error))
    return new GraphError(`${label}: Meta did not answer within ${timeoutMs} ms`, true, 0, null);
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return new GraphError(
    `${label}: Meta could not be reached${typeof cause === 'string' ? ` (${cause})` : ''}`,
    true,
    0,
    null,
  );
}
