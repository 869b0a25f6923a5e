import { randomBytes } from 'node:crypto';
import type { GraphCall, GraphFailure } from './graph-stand-in.types';

/** An answer in Meta's error envelope `{error: {message, type, code, error_subcode, fbtrace_id}}`. */
export class MetaErrorAnswer {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly message: string,
    readonly type = 'OAuthException',
    readonly subcode?: number,
    readonly retryAfter?: number,
  ) {}

  body() {
    return {
      error: {
        message: this.message,
        type: this.type,
        code: this.code,
        ...(this.subcode !== undefined ? { error_subcode: this.subcode } : {}),
        fbtrace_id: randomBytes(12).toString('base64url'),
      },
    };
  }
}

export const invalidToken = () =>
  new MetaErrorAnswer(401, 190, 'Invalid OAuth access token - Cannot parse access token');

/** Meta's answer for an id it does not know (or that does not support the operation). */
export const unsupported = (method: string, id: string) =>
  new MetaErrorAnswer(
    400,
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    'GraphMethodException',
    33,
  );

export const invalidParameter = (message: string, code = 100) =>
  new MetaErrorAnswer(400, code, message);

function defaultsFor(status: number): { code: number; message: string } {
  if (status === 429) return { code: 130429, message: '(#130429) Rate limit hit' };
  if (status === 503) return { code: 2, message: 'Service temporarily unavailable' };
  if (status >= 500) return { code: 1, message: 'An unknown error occurred' };
  if (status === 401) return { code: 190, message: 'Invalid OAuth access token' };
  return { code: 100, message: '(#100) Invalid parameter' };
}

export function failureAnswer(failure: GraphFailure): MetaErrorAnswer {
  const defaults = defaultsFor(failure.status);
  return new MetaErrorAnswer(
    failure.status,
    failure.code ?? defaults.code,
    failure.message ?? defaults.message,
    failure.type ?? 'OAuthException',
    failure.subcode,
    failure.retryAfter,
  );
}

export function failureMatches(failure: GraphFailure, call: GraphCall): boolean {
  if (failure.method && failure.method.toUpperCase() !== call.method) return false;
  if (failure.path !== undefined) {
    const matches =
      typeof failure.path === 'string'
        ? call.path.startsWith(failure.path)
        : failure.path.test(call.path);
    if (!matches) return false;
  }
  return !failure.when || failure.when(call);
}

/** The failures set with `failNext` and `failFor`, consumed in that order. */
export class FailurePlan {
  private next: Array<{ remaining: number; failure: GraphFailure }> = [];
  private windows: Array<{ until: number; failure: GraphFailure }> = [];

  failNext(count: number, failure: GraphFailure): void {
    if (count > 0) this.next.push({ remaining: count, failure });
  }

  failFor(ms: number, failure: GraphFailure): void {
    this.windows.push({ until: Date.now() + ms, failure });
  }

  clear(): void {
    this.next = [];
    this.windows = [];
  }

  /** The failure to answer `call` with, if any (a `failNext` one is used up). */
  take(call: GraphCall): GraphFailure | undefined {
    const planned = this.next.find((entry) => failureMatches(entry.failure, call));
    if (planned) {
      if (--planned.remaining <= 0) this.next.splice(this.next.indexOf(planned), 1);
      return planned.failure;
    }
    const now = Date.now();
    this.windows = this.windows.filter((window) => window.until > now);
    return this.windows.find((window) => failureMatches(window.failure, call))?.failure;
  }
}
