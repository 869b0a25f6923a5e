import { phoneNumber } from '@switchboard/contracts';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

/**
 * A sender as the API takes it, in its stored form: a phone number in E.164, a short code (3 to 8
 * digits) as its digits, an alphanumeric sender ID (up to 11 letters, digits and spaces, at least
 * one letter) as given. Undefined when it can be none of these.
 */
export function senderForm(value: string): string | undefined {
  const trimmed = value.trim();
  if (/^\d{3,8}$/.test(trimmed)) return trimmed;
  if (/^[A-Za-z0-9 ]{1,11}$/.test(trimmed) && /[A-Za-z]/.test(trimmed)) return trimmed;
  return phoneNumber(trimmed);
}

/** Whether the workspace holds `sender`: a number allocated to it, or a registered sender ID. */
export async function holdsSender(
  runner: SqlRunner,
  workspaceId: string,
  sender: string,
): Promise<boolean> {
  const rows = rowsOf(
    await runner.query(
      `SELECT 1 FROM sms_whatsapp.number_allocations
       WHERE workspace_id = $1 AND number = $2 AND released_at IS NULL
       UNION ALL
       SELECT 1 FROM sms_whatsapp.sms_senders WHERE workspace_id = $1 AND sender = $2
       LIMIT 1`,
      [workspaceId, sender],
    ),
  );
  return rows.length > 0;
}
