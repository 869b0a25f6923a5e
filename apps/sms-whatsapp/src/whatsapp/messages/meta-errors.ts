import type { WhatsAppError } from '@switchboard/contracts';

/**
 * Meta's error codes (Cloud API, "Error codes") by the normalised `last_error.code` they become.
 * A code not listed is `undeliverable`, with Meta's own code kept in `meta_error_code`.
 */
const META_CODES: ReadonlyArray<[string, readonly number[]]> = [
  // Re-engagement message: more than 24 hours since the contact's last message.
  ['service_window_expired', [131047]],
  // Throughput (130429), pair rate limit (131056), spam rate limit (131048), app rate limits.
  ['rate_limited', [4, 80007, 130429, 131048, 131056]],
  // Media upload/download errors and media Meta refused.
  ['media_rejected', [131052, 131053]],
  // Meta's own trouble, when it did not clear within the retries.
  ['internal_error', [1, 2, 131000, 131016]],
];

const BY_CODE = new Map<number, string>(
  META_CODES.flatMap(([ours, codes]) => codes.map((code) => [code, ours] as [number, string])),
);

/** Our code for Meta's (`undeliverable` for 131026 and every code not mapped). */
export function normalisedErrorCode(metaCode: number | null): string {
  return (metaCode !== null && BY_CODE.get(metaCode)) || 'undeliverable';
}

/** Meta's error as `{code, title, message, error_data.details}` (webhooks and Graph replies). */
export interface MetaErrorLike {
  code?: number | null;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

/** `last_error` for Meta's error. */
export function whatsappErrorOf(error: MetaErrorLike | undefined, at: Date): WhatsAppError {
  const metaCode = typeof error?.code === 'number' ? error.code : null;
  return {
    code: normalisedErrorCode(metaCode),
    description:
      error?.error_data?.details ||
      error?.message ||
      error?.title ||
      'WhatsApp did not deliver the message',
    meta_error_code: metaCode === null ? null : String(metaCode),
    occurred_at: at.toISOString(),
  };
}
