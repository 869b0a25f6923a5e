/**
 * The statuses of a WhatsApp number that still send: Meta keeps sending from a number it
 * flagged for low quality, rate-limits or restricts; the others never finished connecting
 * (`pending`, `preparing`, `awaiting_signup`, `failed`) or stopped for good (`banned`,
 * `deleted`, `disconnected`, `migrated`).
 */
export const SENDING_NUMBER_STATUSES: readonly string[] = [
  'connected',
  'flagged',
  'rate_limited',
  'restricted',
];

export const numberSends = (status: string): boolean => SENDING_NUMBER_STATUSES.includes(status);

/** `SENDING_NUMBER_STATUSES` as an SQL list, for statements that check it themselves. */
export const SENDING_NUMBER_STATUSES_SQL = SENDING_NUMBER_STATUSES.map((s) => `'${s}'`).join(', ');
