import { writeOutboxEvents } from '@switchboard/background';
import { newId } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { InboundReactionRow } from './inbound.repository';
import type { InboundRepository } from './inbound.repository';

/** Where Meta tries a reaction whose message is not recorded yet (it does not keep order). */
export const LATE_REACTIONS_QUEUE = 'whatsapp.late-reactions';

/** A late-reactions job: the reactions to log once their messages are recorded. */
export interface LateReactionsPayload {
  workspace_id: string;
  business: Record<string, string>;
  reactions: Array<Omit<InboundReactionRow, 'at'> & { at: string }>;
}

/**
 * Logs the contact's reactions, folds each message's newest into it and announces them
 * (`whatsapp.reacted`), in the caller's transaction. Answers the reactions whose message is not
 * recorded (yet): neither logged now nor logged before.
 */
export async function logInboundReactions(
  tx: SqlRunner,
  repository: InboundRepository,
  workspaceId: string,
  business: Record<string, string>,
  rows: InboundReactionRow[],
): Promise<InboundReactionRow[]> {
  const logged = await repository.insertReactions(tx, workspaceId, rows);
  const loggedIds = new Set(logged.map((entry) => entry.id));
  const missed = rows.filter((row) => !loggedIds.has(row.id));
  const before = await repository.loggedReactions(
    tx,
    missed.map((row) => row.wamid),
  );
  const unmatched = missed.filter((row) => !before.has(row.wamid));
  if (logged.length === 0) return unmatched;
  await repository.foldInboundReactions(tx, workspaceId, [
    ...new Set(logged.map((entry) => entry.message_id)),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  await writeOutboxEvents(
    tx,
    'sms_whatsapp',
    logged.map((entry) => {
      const row = byId.get(entry.id) as InboundReactionRow;
      return {
        id: newId('evt', row.at.getTime()),
        type: 'whatsapp.reacted',
        workspaceId,
        timestamp: row.at.toISOString(),
        data: {
          whatsapp_id: entry.message_id,
          emoji: row.emoji,
          from: row.from,
          to: business,
          workspace_id: workspaceId,
        },
      };
    }),
  );
  return unmatched;
}
