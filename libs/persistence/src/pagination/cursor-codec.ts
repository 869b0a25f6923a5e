import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@switchboard/platform';
import type { SortOrder } from './page';
import { CommonErrors } from '@switchboard/contracts';

/**
 * A point in a list: the row whose sort value (rendered as text, exact to the microsecond for
 * timestamps) and id are these. `null` stands for the end of the list, past its last row.
 */
export interface CursorPosition {
  value: string | null;
  id: string;
}

/** What a cursor is only valid for: the sort and order it was made under and the list's filters. */
export interface CursorBinding {
  sort: string;
  order: SortOrder;
  /** Plain JSON values (a Date counts as its ISO string); key order does not matter. */
  filters: unknown;
}

/** Bumped whenever the payload changes meaning; older cursors are then rejected with E01012. */
const VERSION = 1;
const MAC_BYTES = 32;
const MAX_TOKEN_LENGTH = 2048;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Filters hashes kept per codec (all forgotten at once when full). */
const FILTERS_HASHES_KEPT = 1000;

interface CursorPayload {
  /** version */
  v: number;
  /** sort name */
  s: string;
  /** order */
  o: SortOrder;
  /** keyed hash of the filters */
  f: string;
  /** expiry, epoch milliseconds */
  e: number;
  /** position: [sort value, id], or null for the end of the list */
  k: [string | null, string] | null;
}

/**
 * Signs and checks pagination cursors. A cursor is base64url over an HMAC-SHA256 tag followed by a
 * small JSON payload (version, sort, order, filters hash, expiry, position). Clients must treat it
 * as opaque; the signature means a cursor the server did not make never reaches SQL.
 */
export class CursorCodec {
  private readonly filtersHashes = new Map<string, string>();

  constructor(
    private readonly secret: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!secret) throw new Error('CursorCodec needs a non-empty secret');
    if (!Number.isFinite(ttlMs) || ttlMs <= 0)
      throw new Error('CursorCodec needs a positive ttlMs');
  }

  encode(binding: CursorBinding, position: CursorPosition | null): string {
    const payload: CursorPayload = {
      v: VERSION,
      s: binding.sort,
      o: binding.order,
      f: this.filtersHash(binding.filters),
      e: this.now() + this.ttlMs,
      k: position && [position.value, position.id],
    };
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    return Buffer.concat([this.sign(body), body]).toString('base64url');
  }

  /** The position a cursor names, or AppError E01012 when it is not one this list accepts now. */
  decode(token: string, binding: CursorBinding): CursorPosition | null {
    const payload = this.verify(token);
    if (payload.e < this.now())
      throw invalidCursor('The pagination cursor has expired; start again from the first page.');
    if (payload.s !== binding.sort || payload.o !== binding.order) {
      throw invalidCursor(
        'The pagination cursor was made for another sort or order; pass the sort and order it came with.',
      );
    }
    if (payload.f !== this.filtersHash(binding.filters)) {
      throw invalidCursor(
        'The pagination cursor was made for other filters; pass the filters it came with.',
      );
    }
    return payload.k && { value: payload.k[0], id: payload.k[1] };
  }

  private verify(token: string): CursorPayload {
    const malformed = () => invalidCursor('The pagination cursor is malformed.');
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !BASE64URL.test(token))
      throw malformed();
    const raw = Buffer.from(token, 'base64url');
    // The re-encoding check refuses the other spellings of the same bytes (stray trailing bits).
    if (raw.length <= MAC_BYTES || raw.toString('base64url') !== token) throw malformed();
    const body = raw.subarray(MAC_BYTES);
    if (!timingSafeEqual(raw.subarray(0, MAC_BYTES), this.sign(body))) throw malformed();
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      throw malformed();
    }
    if (!isRecord(payload) || typeof payload.v !== 'number') throw malformed();
    if (payload.v !== VERSION)
      throw invalidCursor(
        'The pagination cursor is from an older version; start again from the first page.',
      );
    if (!isPayload(payload)) throw malformed();
    return payload;
  }

  private sign(body: Buffer): Buffer {
    return createHmac('sha256', this.secret).update('cursor\0').update(body).digest();
  }

  /**
   * Keyed, so the hash reveals nothing about the filters (a workspace id, a search term). A page
   * needs it up to three times (the cursor it was given, the next and the refresh cursor) and a
   * workspace's pages keep the same filters, so recent hashes are kept by canonical filters.
   */
  private filtersHash(filters: unknown): string {
    const text = JSON.stringify(canonical(filters)) ?? 'null';
    let hash = this.filtersHashes.get(text);
    if (hash === undefined) {
      hash = createHmac('sha256', this.secret)
        .update('filters\0')
        .update(text)
        .digest('base64url')
        .slice(0, 22);
      if (this.filtersHashes.size >= FILTERS_HASHES_KEPT) this.filtersHashes.clear();
      this.filtersHashes.set(text, hash);
    }
    return hash;
  }
}

function invalidCursor(message: string): AppError {
  return new AppError(CommonErrors.InvalidCursor, { message });
}

/** The same JSON for the same values whatever the key order; undefined members dropped. */
function canonical(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    // Inserting in sorted order gives one serialisation per key set (JS orders integer-like keys
    // first, but the same way every time).
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => value[key] !== undefined)
        .map((key) => [key, canonical(value[key])]),
    );
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPayload(
  value: Record<string, unknown>,
): value is Record<string, unknown> & CursorPayload {
  const { s, o, f, e, k } = value;
  const position =
    k === null ||
    (Array.isArray(k) &&
      k.length === 2 &&
      (k[0] === null || typeof k[0] === 'string') &&
      typeof k[1] === 'string');
  return (
    typeof s === 'string' &&
    (o === 'asc' || o === 'desc') &&
    typeof f === 'string' &&
    typeof e === 'number' &&
    position
  );
}
