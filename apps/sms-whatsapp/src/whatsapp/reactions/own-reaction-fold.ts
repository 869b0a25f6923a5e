import type { SqlRunner } from '@switchboard/persistence';
import { returnedRows } from '../inbound/returned-rows';
import { reactionStatus } from '../webhooks/account-changes';
import type { MetaStatus } from '../webhooks/meta-webhook';

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

/**
 * Meta's statuses of this workspace's own reactions (a reaction is a message with a wamid of its
 * own): `sent`, or `failed` with Meta's error; a reaction that failed stays failed, whatever
 * arrives after, and the messages of those that failed are folded again. Answers the wamids that
 * name a reaction of ours, changed or not: the others are the messages' (or not recorded yet).
 */
export async function applyOwnReactionStatuses(
  tx: SqlRunner,
  workspaceId: string,
  statuses: MetaStatus[],
): Promise<Set<string>> {
  if (statuses.length === 0) return new Set();
  const ours = returnedRows<{ wamid: string; status: string }>(
    await tx.query(
      `WITH x AS (
         -- A wamid reported twice in one batch: failed wins, as it would one webhook at a time.
         SELECT DISTINCT ON (wamid) wamid, status, error
         FROM jsonb_to_recordset($2::jsonb) AS x(wamid text, status text, error jsonb)
         ORDER BY wamid, status = 'failed' DESC),
       changed AS (
         UPDATE sms_whatsapp.whatsapp_reaction_events r SET status = x.status, error = x.error
         FROM x
         WHERE r.workspace_id = $1 AND r.direction = 'outbound' AND r.provider_message_id = x.wamid
           AND r.status NOT IN ('failed', 'rejected') AND r.status IS DISTINCT FROM x.status)
       SELECT x.wamid, x.status FROM x
       WHERE EXISTS (SELECT 1 FROM sms_whatsapp.whatsapp_reaction_events r
         WHERE r.workspace_id = $1 AND r.direction = 'outbound' AND r.provider_message_id = x.wamid)`,
      [workspaceId, JSON.stringify(statuses.map(reactionStatus))],
    ),
  );
  // A reaction of ours Meta reports failed no longer stands on its message.
  await foldOwnReactions(tx, {
    workspaceId,
    wamids: ours.filter((row) => row.status === 'failed').map((row) => row.wamid),
  });
  return new Set(ours.map((row) => row.wamid));
}
