import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { wakeQueue, wakeRelay } from '@switchboard/background';
import { pgPoolOf, poolRunner } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { eventInserts, outboxRow, timelineRow } from '../email-events.repository';
import type { TemplatePinGuard } from '../../templates';
import type { MessageDraft } from './message-draft';

export const PROCESS_QUEUE = 'email.process';

/** Named queries of the accept path: what a send writes, and the onboarding allowance. */
@Injectable()
export class AcceptRepository {
  private readonly autocommit: SqlRunner;
  private readonly pool: Pool;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.autocommit = poolRunner(dataSource);
    this.pool = pgPoolOf(dataSource);
  }

  /** `insertDrafts` in a transaction of the caller's, or alone in autocommit (one round trip). */
  insert(drafts: MessageDraft[], executor: SqlRunner = this.autocommit): Promise<void> {
    return insertDrafts(executor, drafts);
  }

  /** After the commit of an insert: see `wakeAccepted`. */
  wake(drafts: MessageDraft[]): void {
    wakeAccepted(this.pool, drafts);
  }

  countOnboardingSends(executor: SqlRunner, workspaceId: string, messages: number) {
    return countOnboardingSends(executor, workspaceId, messages);
  }
}

/**
 * Writes accepted messages (one or a batch of 100) in ONE statement whatever the batch size:
 * messages, recipients, contents, the events (timeline and outbox), one processing job per
 * message. A send without an Idempotency-Key runs it alone, in autocommit: one round trip.
 * Sends pinned without a query carry guards it checks last: a stale one aborts it (SBT01).
 * After the commit the caller wakes the workers and the relay (`wakeAccepted`). The outbox and jobs rows follow
 * `writeOutboxEvents` and `enqueueJobs` (libs/persistence), written here to keep the single statement.
 */
/** Exported for the bench's bare route (bench/bare-email.mjs), which writes the same rows. */
export async function insertDrafts(executor: SqlRunner, drafts: MessageDraft[]): Promise<void> {
  const events = drafts.flatMap((draft) => draft.events);
  await executor.query(
    `WITH m AS (
       INSERT INTO email.messages (id, workspace_id, from_email, from_name, sender_domain,
         onboarding, to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category,
         status, tags, metadata, parameters, headers, attachments, track_opens, track_clicks,
         ip_pool_id, template_id, template_version_id, requested_language, resolved_language,
         accepted_count, scheduled_at, created_at)
       SELECT id, workspace_id, from_email, from_name, sender_domain, onboarding, to_addresses,
         cc_addresses, bcc_addresses, reply_to, subject, category, status, tags, metadata,
         parameters, headers, attachments, track_opens, track_clicks, ip_pool_id, template_id,
         template_version_id, requested_language, resolved_language, accepted_count,
         scheduled_at, created_at
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, workspace_id text, from_email text,
         from_name text, sender_domain text, onboarding boolean, to_addresses jsonb,
         cc_addresses jsonb, bcc_addresses jsonb, reply_to jsonb, subject text, category text,
         status text, tags jsonb, metadata jsonb, parameters jsonb, headers jsonb,
         attachments jsonb, track_opens boolean, track_clicks boolean, ip_pool_id text,
         template_id text, template_version_id text, requested_language text,
         resolved_language text, accepted_count int, scheduled_at timestamptz, created_at timestamptz)
     ), r AS (
       INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, name,
         allowed, status)
       SELECT id, message_id, workspace_id, position, role, email, name, allowed, status
       FROM jsonb_to_recordset($2::jsonb) AS x(id text, message_id text, workspace_id text,
         position int, role text, email text, name text, allowed boolean, status text)
     ), c AS (
       INSERT INTO email.contents (message_id, workspace_id, html, text, attachments)
       SELECT message_id, workspace_id, html, text, attachments
       FROM jsonb_to_recordset($3::jsonb) AS x(message_id text, workspace_id text, html text,
         text text, attachments jsonb)
     ), ${eventInserts('$4', '$5')}, j AS (
       INSERT INTO email.jobs (queue, payload, run_at)
       SELECT queue, payload, coalesce(run_at, now())
       FROM jsonb_to_recordset($6::jsonb) AS x(queue text, payload jsonb, run_at timestamptz)
     )
     SELECT email.refuse_stale_template_pins(count(*))
     FROM jsonb_to_recordset($7::jsonb) AS p(workspace_id text, id text, slug text,
       version_id text, category text, on_missing_language text, language_source_required boolean)
     WHERE NOT EXISTS (
       SELECT 1 FROM email.templates t
       WHERE t.workspace_id = p.workspace_id AND t.id = p.id AND t.slug = p.slug
         AND t.live_version_id = p.version_id AND t.category = p.category
         AND t.on_missing_language = p.on_missing_language
         AND t.language_source_required = p.language_source_required)`,
    [
      JSON.stringify(drafts.map((draft) => draft.message)),
      JSON.stringify(drafts.flatMap((draft) => draft.recipients)),
      JSON.stringify(drafts.map((draft) => draft.content)),
      JSON.stringify(events.map(timelineRow)),
      JSON.stringify(events.map(outboxRow)),
      JSON.stringify(
        drafts.map((draft) => ({
          queue: PROCESS_QUEUE,
          payload: { message_id: draft.message.id },
          run_at: draft.runAt?.toISOString() ?? null,
        })),
      ),
      JSON.stringify(templatePins(drafts)),
    ],
  );
}

/** The drafts' distinct template pin guards (sends of one template pinned alike share one). */
function templatePins(drafts: MessageDraft[]): TemplatePinGuard[] {
  const pins = new Map<string, TemplatePinGuard>();
  for (const { templatePin } of drafts) if (templatePin) pins.set(pinKey(templatePin), templatePin);
  return [...pins.values()];
}

/** Every field of a guard: two pins that differ in any one must both be checked. */
function pinKey(pin: TemplatePinGuard): string {
  const { workspace_id, id, slug, version_id, category, on_missing_language } = pin;
  return [workspace_id, id, slug, version_id, category, on_missing_language]
    .concat(String(pin.language_source_required))
    .join(' ');
}

/**
 * After the commit of `insertDrafts`: wakes the relay for the events, and the processing workers
 * when a message is due now (jobs due later are found by the workers' timers).
 */
function wakeAccepted(pool: Pool, drafts: MessageDraft[]): void {
  wakeRelay(pool, 'email');
  if (drafts.some((draft) => draft.runAt === undefined)) wakeQueue(pool, 'email', PROCESS_QUEUE);
}

/**
 * Counts onboarding-domain messages against the workspace's daily allowance in the send's
 * transaction; returns the day's total including these (the caller refuses over the limit,
 * which rolls the count back with everything else).
 */
async function countOnboardingSends(
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
