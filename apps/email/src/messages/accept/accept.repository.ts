import { enqueueJobs } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { recordEvents } from '../email-events.repository';
import type { MessageDraft } from './message-draft';

export const PROCESS_QUEUE = 'email.process';

/**
 * Writes accepted messages (one or a batch of 100) in the caller's transaction: messages,
 * recipients and contents in one statement, the events (timeline and outbox) in two, and one
 * processing job per message in one: four round trips whatever the batch size.
 */
export async function insertDrafts(executor: SqlRunner, drafts: MessageDraft[]): Promise<void> {
  await executor.query(
    `WITH m AS (
       INSERT INTO email.messages (id, workspace_id, from_email, from_name, sender_domain,
         onboarding, to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category,
         status, tags, metadata, parameters, headers, attachments, track_opens, track_clicks,
         ip_pool_id, accepted_count, scheduled_at, created_at)
       SELECT id, workspace_id, from_email, from_name, sender_domain, onboarding, to_addresses,
         cc_addresses, bcc_addresses, reply_to, subject, category, status, tags, metadata,
         parameters, headers, attachments, track_opens, track_clicks, ip_pool_id, accepted_count,
         scheduled_at, created_at
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, workspace_id text, from_email text,
         from_name text, sender_domain text, onboarding boolean, to_addresses jsonb,
         cc_addresses jsonb, bcc_addresses jsonb, reply_to jsonb, subject text, category text,
         status text, tags jsonb, metadata jsonb, parameters jsonb, headers jsonb,
         attachments jsonb, track_opens boolean, track_clicks boolean, ip_pool_id text,
         accepted_count int, scheduled_at timestamptz, created_at timestamptz)
     ), r AS (
       INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, name,
         allowed, status)
       SELECT id, message_id, workspace_id, position, role, email, name, allowed, status
       FROM jsonb_to_recordset($2::jsonb) AS x(id text, message_id text, workspace_id text,
         position int, role text, email text, name text, allowed boolean, status text)
     )
     INSERT INTO email.contents (message_id, workspace_id, html, text, attachments)
     SELECT message_id, workspace_id, html, text, attachments
     FROM jsonb_to_recordset($3::jsonb) AS x(message_id text, workspace_id text, html text,
       text text, attachments jsonb)`,
    [
      JSON.stringify(drafts.map((draft) => draft.message)),
      JSON.stringify(drafts.flatMap((draft) => draft.recipients)),
      JSON.stringify(drafts.map((draft) => draft.content)),
    ],
  );
  await recordEvents(
    executor,
    drafts.flatMap((draft) => draft.events),
  );
  await enqueueJobs(
    executor,
    'email',
    drafts.map((draft) => ({
      queue: PROCESS_QUEUE,
      payload: { message_id: draft.message.id },
      runAt: draft.runAt,
    })),
  );
}

/**
 * Counts onboarding-domain messages against the workspace's daily allowance in the send's
 * transaction; returns the day's total including these (the caller refuses over the limit,
 * which rolls the count back with everything else).
 */
export async function countOnboardingSends(
  executor: SqlRunner,
  workspaceId: string,
  messages: number,
): Promise<number> {
  const rows = (await executor.query(
    `INSERT INTO email.onboarding_usage (workspace_id, day, sent)
     VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2)
     ON CONFLICT (workspace_id, day) DO UPDATE SET sent = email.onboarding_usage.sent + $2
     RETURNING sent`,
    [workspaceId, messages],
  )) as Array<{ sent: number }>;
  return rows[0].sent;
}
