import type { Rpc } from '../rpc';

/**
 * The email service's credential-free tracking and unsubscribe operations (contract section 12):
 * the gateway serves `/t/o/{token}`, `/t/c/{token}` and `/u/{token}` on `PUBLIC_URL`. Tokens are
 * `TrackingTokens` (signed with a key derived from ENCRYPTION_KEY): the gateway checks an open's
 * or click's token itself, answers at once and hands the hits over in batches (ADR 17); the
 * email service checks each again before it records it. Unsubscribes are one request each.
 */
export const EmailTrackingSubjects = {
  RecordHits: 'email.tracking.record',
  UnsubscribePage: 'email.unsubscribe.page',
  Unsubscribe: 'email.unsubscribe.confirm',
} as const;

/** One open-pixel load or tracked-link follow, as the gateway answered it. */
export interface TrackingHit {
  /**
   * Unique to the answered hit, and the same each time its batch is offered again (a request that
   * timed out may still have committed): the email service records a hit once per id.
   */
  id: string;
  token: string;
  /** When it was answered, ISO 8601. */
  at: string;
  /** The client address (behind TRUST_PROXY, the forwarded one). */
  ip_address: string | null;
  user_agent: string | null;
}

export interface RecordTrackingHitsRequest {
  hits: TrackingHit[];
}

/** Answered once the hits are committed; `recorded` leaves out those naming no message now. */
export interface RecordTrackingHitsReply {
  recorded: number;
}

export interface UnsubscribePageRequest {
  token: string;
}

/** What the confirmation page shows: who is unsubscribed from what, never the whole address. */
export interface UnsubscribePageReply {
  /** The recipient address with its local part shortened (`j…e@example.com`). */
  masked_address: string;
  /** The sending domain the mail came from. */
  sender_domain: string;
}

/**
 * An unsubscribe: `one_click` when a mail client posted RFC 8058's `List-Unsubscribe=One-Click`
 * (recorded `email.list_unsubscribed`), `page` when the person pressed the page's button
 * (`email.unsubscribed`).
 */
export interface UnsubscribeRequest {
  token: string;
  via: 'one_click' | 'page';
  ip_address: string | null;
  user_agent: string | null;
}

export interface UnsubscribeReply {
  masked_address: string;
  sender_domain: string;
}

export interface EmailTrackingRpc {
  [EmailTrackingSubjects.RecordHits]: Rpc<RecordTrackingHitsRequest, RecordTrackingHitsReply>;
  [EmailTrackingSubjects.UnsubscribePage]: Rpc<UnsubscribePageRequest, UnsubscribePageReply>;
  [EmailTrackingSubjects.Unsubscribe]: Rpc<UnsubscribeRequest, UnsubscribeReply>;
}
