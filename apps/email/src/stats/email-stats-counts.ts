/**
 * The counts an email rollup row keeps (ADR 18). `sends_accepted` counts messages; every other
 * one recipients or (opens, clicks, unsubscribes, out-of-band bounces) events. The five bounce
 * types partition `bounced`.
 */
export const EMAIL_STATS_COUNTS = [
  'sends_accepted',
  'accepted',
  'processed',
  'delivered',
  'bounced',
  'hard',
  'soft',
  'admin',
  'block',
  'undetermined',
  'complained',
  'deferred',
  'rejected',
  'oob_bounces',
  'opens',
  'opens_non_prefetched',
  'unique_opens',
  'unique_opens_non_prefetched',
  'clicks',
  'unique_clicks',
  'unsubscribes',
] as const;
export type EmailStatsCount = (typeof EMAIL_STATS_COUNTS)[number];
export type EmailStatsCounts = Record<EmailStatsCount, number>;
