import type { SqlRunner } from '@switchboard/persistence';

/**
 * Folds this workspace's reaction log into each message's `reaction`: the latest outbound entry
 * WhatsApp took (`sent`) stands (NULL when it took the reaction back, or when none was taken).
 * A `failed` entry, refused at once or reported later by a status webhook, stands for nothing,
 * so the reaction before it shows again. `wamids` names the messages by the wamids of their
 * reaction entries (what a status webhook carries); `messageIds` by their own ids.
 */
export async function foldOwnReactions(
  tx: SqlRunner,
  target: { messageIds: string[] } | { workspaceId: string; wamids: string[] },
): Promise<void> {
  const byWamid = 'wamids' in target;
  if ((byWamid ? target.wamids : target.messageIds).length === 0) return;
  const messages = byWamid
    ? `SELECT DISTINCT message_id FROM sms_whatsapp.whatsapp_reaction_events
       WHERE workspace_id = $2 AND direction = 'outbound' AND provider_message_id = ANY ($1::text[])`
    : `SELECT unnest($1::text[]) AS message_id`;
  await tx.query(
    `WITH targets AS (${messages})
     UPDATE sms_whatsapp.whatsapp_messages m
     SET reaction = (
       SELECT CASE WHEN e.emoji IS NULL THEN NULL
         ELSE jsonb_build_object('emoji', e.emoji, 'from', e.from_address) END
       FROM sms_whatsapp.whatsapp_reaction_events e
       WHERE e.message_id = m.id AND e.direction = 'outbound' AND e.status = 'sent'
       ORDER BY e.occurred_at DESC, e.seq DESC LIMIT 1)
     FROM targets WHERE m.id = targets.message_id`,
    byWamid ? [target.wamids, target.workspaceId] : [target.messageIds],
  );
}
