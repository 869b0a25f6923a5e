import type { Rpc } from '../rpc';

/**
 * The email service's credential-free tracking and unsubscribe operations (contract section 12):
 * the gateway serves `/t/o/{token}`, `/t/c/{token}` and `/u/{token}` on `PUBLIC_URL` and hands
 * each hit here. The token is the credential: signed by the email service, which alone holds its
 * key, so a forged or altered one is answered 404 without a read.
 */
export const EmailTrackingSubjects = {
  Open: 'email.tracking.open',
  Click: 'email.tracking.click',
  UnsubscribePage: 'email.unsubscribe.page',
  Unsubscribe: 'email.unsubscribe.confirm',
} as const;

/** What the gateway saw of the client that followed a link or loaded the pixel. */
export interface TrackingHitRequest {
  token: string;
  /** The client address (behind TRUST_PROXY, the forwarded one). */
  ip_address: string | null;
  user_agent: string | null;
}

/** Where a tracked link goes: the original URL, exactly as it was in the message. */
export interface TrackedClickReply {
  url: string;
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
  [EmailTrackingSubjects.Open]: Rpc<TrackingHitRequest, null>;
  [EmailTrackingSubjects.Click]: Rpc<TrackingHitRequest, TrackedClickReply>;
  [EmailTrackingSubjects.UnsubscribePage]: Rpc<UnsubscribePageRequest, UnsubscribePageReply>;
  [EmailTrackingSubjects.Unsubscribe]: Rpc<UnsubscribeRequest, UnsubscribeReply>;
}
