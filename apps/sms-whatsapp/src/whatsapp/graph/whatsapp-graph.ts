/**
 * How the WhatsApp area reaches Meta's Cloud API (contract section 10): one interface, whatever
 * sits behind it (`HttpWhatsAppGraph` against `WHATSAPP_GRAPH_URL`; a test starts a Graph
 * stand-in and points the URL at it, it never replaces this class). Shapes are Meta's own.
 */

/** `GET /{phone_number_id}` (the fields the platform reads). */
export interface GraphPhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
  messaging_limit_tier?: string;
  throughput?: { level?: string };
  is_official_business_account?: boolean;
  status?: string;
  name_status?: string;
  code_verification_status?: string;
  platform_type?: string;
  data_localization_region?: string;
}

/** `GET /{waba_id}`. */
export interface GraphBusinessAccount {
  id: string;
  name?: string;
  account_review_status?: string;
  business_verification_status?: string;
  marketing_messages_onboarding_status?: string;
  owner_business_info?: { id?: string; name?: string };
  ban_state?: string;
  decision?: string;
}

/** One entry of `GET /{waba_id}/message_templates`: Meta's template of one name in one language. */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  previous_category?: string;
  components: Array<Record<string, unknown>>;
  quality_score?: { score?: string; date?: number };
  rejected_reason?: string;
}

/** `GET /{phone_number_id}/whatsapp_business_profile` (`data[0]`). */
export interface GraphBusinessProfile {
  about?: string;
  address?: string;
  description?: string;
  email?: string;
  profile_picture_url?: string;
  vertical?: string;
  websites?: string[];
}

/** `GET /{media_id}`. */
export interface GraphMediaInfo {
  id: string;
  url: string;
  mime_type: string;
  sha256?: string;
  file_size?: number;
}

/** The body of `POST /{phone_number_id}/messages`, as Meta takes it. */
export type GraphMessageBody = {
  messaging_product: 'whatsapp';
  recipient_type?: 'individual';
  to?: string;
  type?: string;
  status?: 'read';
  message_id?: string;
  typing_indicator?: { type: 'text' };
  context?: { message_id: string };
} & Record<string, unknown>;

export interface WhatsAppGraph {
  /** `POST /{phone_number_id}/register` `{messaging_product, pin}`. */
  registerNumber(phoneNumberId: string, pin: string): Promise<void>;
  /** `POST /{waba_id}/subscribed_apps`: webhooks of the account come to this platform's app. */
  subscribeApp(wabaId: string): Promise<void>;
  getPhoneNumber(phoneNumberId: string): Promise<GraphPhoneNumber>;
  getBusinessAccount(wabaId: string): Promise<GraphBusinessAccount>;
  /** Every template of the account, following `paging.next`. */
  listTemplates(wabaId: string): Promise<GraphTemplate[]>;
  getBusinessProfile(phoneNumberId: string): Promise<GraphBusinessProfile>;
  /** `POST /{phone_number_id}/messages`; resolves to `messages[0].id` (a send) or `''` (a read receipt). Respects the number's throughput. */
  sendMessage(phoneNumberId: string, body: GraphMessageBody): Promise<{ messageId: string }>;
  getMedia(mediaId: string): Promise<GraphMediaInfo>;
  /** Downloads a media `url` from `getMedia` with the token (the URL is short-lived). */
  downloadMedia(url: string): Promise<Buffer>;
}

/**
 * A Graph call that failed. `temporary` ones (429, 5xx, a time-out, a refused connection) are
 * retried by the caller's work queue with back-off; the others are final and keep Meta's code.
 */
export class GraphError extends Error {
  constructor(
    message: string,
    readonly temporary: boolean,
    /** The HTTP status, or 0 when Meta was not reached. */
    readonly status: number,
    /** Meta's `error.code` (e.g. 131047, 131026, 100), when Meta answered one. */
    readonly metaCode: number | null,
    readonly metaSubcode: number | null = null,
    /** Meta's `Retry-After`, when given, in milliseconds. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

/** The injection token of the service's `WhatsAppGraph`. */
export const WHATSAPP_GRAPH = Symbol('WHATSAPP_GRAPH');
