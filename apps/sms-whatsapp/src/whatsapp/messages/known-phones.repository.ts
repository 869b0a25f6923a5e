import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';

/**
 * The phone number each business-scoped user id was last seen with in the workspace's WhatsApp
 * messages (Meta's webhooks give both while the person shares their number), keyed
 * `<workspace id> <bsuid>`. The preference ledger knows WhatsApp people by phone number only:
 * this is how a send addressed by BSUID meets a revoke stated for the number. One read.
 */
export async function phonesOfBsuids(
  runner: SqlRunner,
  recipients: ReadonlyArray<{ workspaceId: string; bsuid: string }>,
): Promise<Map<string, string>> {
  if (recipients.length === 0) return new Map();
  const rows = rowsOf<{ workspace_id: string; contact_bsuid: string; contact_phone: string }>(
    await runner.query(
      `SELECT DISTINCT r.workspace_id, r.bsuid AS contact_bsuid, m.contact_phone
       FROM unnest($1::text[], $2::text[]) AS r(workspace_id, bsuid)
       -- The latest message that showed a number, walking the (workspace, bsuid, created_at)
       -- index: a long conversation addressed by BSUID alone is not read whole.
       CROSS JOIN LATERAL (
         SELECT contact_phone FROM sms_whatsapp.whatsapp_messages
         WHERE workspace_id = r.workspace_id AND contact_bsuid = r.bsuid
           AND contact_phone IS NOT NULL
         ORDER BY created_at DESC LIMIT 1
       ) m`,
      [recipients.map((r) => r.workspaceId), recipients.map((r) => r.bsuid)],
    ),
  );
  return new Map(
    rows.map((row) => [`${row.workspace_id} ${row.contact_bsuid}`, row.contact_phone]),
  );
}
