import type { IncomingHttpHeaders } from 'node:http';

export interface GraphStandInOptions {
  /** The Bearer token the stand-in accepts (default `graph-test-token`). */
  accessToken?: string;
  /** The version segment of `url` (default `v23.0`); any `/vNN.N` prefix is accepted. */
  apiVersion?: string;
  /** Most templates per page of `GET /{waba_id}/message_templates`, whatever `limit` asks (default 25). */
  templatePageSize?: number;
  /** Delay before every answer, in ms (default 0; `standIn.delayMs` changes it later). */
  delayMs?: number;
  /** How long a media download URL handed out by `GET /{media_id}` works (default 5 min, Meta's). */
  mediaUrlTtlMs?: number;
  /** Refuse template sends naming a template the account does not hold APPROVED (132001). */
  checkTemplates?: boolean;
  /** The port to listen on, on 127.0.0.1 (default: any free one; `npm run dev:graph` fixes one). */
  port?: number;
}

/** One request as the stand-in received it. */
export interface GraphCall {
  method: string;
  /** The path without the version prefix: `/1234/messages`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it was not JSON; `undefined` when empty). */
  body: unknown;
  /** The HTTP status answered (0 until answered). */
  status: number;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/** A failure to answer instead of the real thing, in Meta's error envelope. */
export interface GraphFailure {
  status: number;
  /** Meta's `error.code` (default by status: 429 -> 130429, 5xx -> 1 or 2, else 100). */
  code?: number;
  subcode?: number;
  type?: string;
  message?: string;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  /** Only calls whose path (without version) matches: a prefix string or a RegExp. */
  path?: string | RegExp;
  method?: string;
  /** Only calls this predicate accepts (e.g. one recipient). */
  when?: (call: GraphCall) => boolean;
}

export interface SeedAccount {
  wabaId: string;
  name?: string;
  accountReviewStatus?: string;
  businessVerificationStatus?: string;
  ownerBusiness?: { id: string; name: string };
  currency?: string;
  timezoneId?: string;
  messageTemplateNamespace?: string;
}

export interface SeedNumber {
  phoneNumberId: string;
  wabaId: string;
  /** As Meta shows it: `+1 555-010-0000`. */
  displayPhoneNumber: string;
  verifiedName?: string;
  qualityRating?: string;
  messagingLimitTier?: string;
  throughputLevel?: string;
  status?: string;
  nameStatus?: string;
  codeVerificationStatus?: string;
  platformType?: string;
  /** When set, `POST /{id}/register` refuses another PIN (133005). */
  pin?: string;
  /** Whether sends are accepted before `register` (default true). */
  registered?: boolean;
  profile?: {
    about?: string;
    address?: string;
    description?: string;
    email?: string;
    profile_picture_url?: string;
    vertical?: string;
    websites?: string[];
  };
}

export interface SeedTemplate {
  id?: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: Array<Record<string, unknown>>;
  parameter_format?: string;
  previous_category?: string;
  quality_score?: { score?: string; date?: number };
  rejected_reason?: string;
}

export type StoredTemplate = SeedTemplate & { id: string };

export interface SeedMedia {
  id: string;
  mimeType: string;
  bytes: Buffer;
  /** Default: the hex SHA-256 of `bytes`. */
  sha256?: string;
}

/** A `POST /{phone_number_id}/messages` the stand-in accepted (sends, reactions, read receipts). */
export interface GraphSentMessage {
  phoneNumberId: string;
  /** The wamid answered, or `''` for a read receipt. */
  wamid: string;
  body: Record<string, unknown>;
  at: number;
}

export interface WebhookPostOptions {
  appSecret: string;
  /** Signs with another secret, so the signature does not match. */
  badSignature?: boolean;
  /** Sends no `X-Hub-Signature-256` at all. */
  unsigned?: boolean;
}

export interface WebhookPostResult {
  status: number;
  body: string;
}
