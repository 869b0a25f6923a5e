import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { writeOutboxEvents } from '@switchboard/background';
import { pgPoolOf, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

export interface VerificationRow {
  id: string;
  workspace_id: string;
  recipient_key: string;
  email: string | null;
  phone_number: string | null;
  status: 'pending' | 'verified' | 'failed' | 'expired' | 'canceled' | 'blocked';
  reason: string | null;
  channels: string[];
  channel_index: number;
  last_channel: string | null;
  language: string;
  code_length: number;
  code_hashes: Buffer[];
  checks: number;
  max_checks: number;
  metadata: Record<string, unknown> | null;
  last_sent_at: Date | null;
  expires_at: Date;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface AttemptRow {
  id: string;
  workspace_id: string;
  verification_id: string;
  channel: string;
  address: string;
  sender: string | null;
  message_id: string | null;
  status: 'sending' | 'sent' | 'delivered' | 'undelivered';
  reason: string | null;
}

const SCHEMA = 'verify_lookup_preferences';
const TABLE = `${SCHEMA}.verifications`;
const ATTEMPTS = `${SCHEMA}.verification_attempts`;

/** Named queries over verifications and their attempts; every one is scoped by workspace. */
@Injectable()
export class VerificationsRepository {
  readonly pool: Pool;

  constructor(@InjectDataSource(SCHEMA) dataSource: DataSource) {
    this.pool = pgPoolOf(dataSource);
  }

  /**
   * Serialises the recipient's writes (a transaction-scoped advisory lock: it may have no row
   * yet) and reads its verification in progress.
   */
  async lockPending(
    runner: SqlRunner,
    workspaceId: string,
    recipientKey: string,
  ): Promise<VerificationRow | undefined> {
    await runner.query(
      `SELECT pg_advisory_xact_lock(hashtextextended($1::text || ' ' || $2::text, 13))`,
      [workspaceId, recipientKey],
    );
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `SELECT * FROM ${TABLE} WHERE workspace_id = $1 AND recipient_key = $2 AND status = 'pending'`,
        [workspaceId, recipientKey],
      ),
    );
    return rows[0];
  }

  async insert(runner: SqlRunner, row: Omit<VerificationRow, 'created_at' | 'updated_at'>) {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `INSERT INTO ${TABLE} (id, workspace_id, recipient_key, email, phone_number, status,
           reason, channels, channel_index, last_channel, language, code_length, code_hashes,
           checks, max_checks, metadata, last_sent_at, expires_at, verified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         RETURNING *`,
        [
          row.id,
          row.workspace_id,
          row.recipient_key,
          row.email,
          row.phone_number,
          row.status,
          row.reason,
          row.channels,
          row.channel_index,
          row.last_channel,
          row.language,
          row.code_length,
          row.code_hashes,
          row.checks,
          row.max_checks,
          row.metadata,
          row.last_sent_at,
          row.expires_at,
          row.verified_at,
        ],
      ),
    );
    return rows[0];
  }

  /** A fresh passcode's hash joins the valid ones; the send it goes with is now. */
  async addPasscode(runner: SqlRunner, id: string, hash: Buffer, at: Date) {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} SET code_hashes = code_hashes || $2::bytea, last_sent_at = $3,
           updated_at = clock_timestamp()
         WHERE id = $1 RETURNING *`,
        [id, hash, at],
      ),
    );
    return rows[0];
  }

  /** Ends a verification (no passcode stays valid); nothing happens to one already final. */
  async finish(
    runner: SqlRunner,
    id: string,
    status: 'verified' | 'failed' | 'expired',
    reason: string | null,
  ): Promise<VerificationRow | undefined> {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} SET status = $2, reason = $3, code_hashes = '{}',
           verified_at = CASE WHEN $2 = 'verified' THEN clock_timestamp() END,
           updated_at = clock_timestamp()
         WHERE id = $1 AND status = 'pending' RETURNING *`,
        [id, status, reason],
      ),
    );
    return rows[0];
  }

  /**
   * Spends one check of the recipient's verification in progress, atomically: concurrent checks
   * queue on the row and none passes `max_checks`. Undefined when none is left to spend.
   */
  async spendCheck(runner: SqlRunner, workspaceId: string, recipientKey: string) {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} SET checks = checks + 1, updated_at = clock_timestamp()
         WHERE workspace_id = $1 AND recipient_key = $2 AND status = 'pending'
           AND checks < max_checks
         RETURNING *`,
        [workspaceId, recipientKey],
      ),
    );
    return rows[0];
  }

  /**
   * `spendCheck` for many recipients in one autocommit statement (distinct recipients: a row is
   * updated once per statement). Answers the rows that had a check left.
   */
  async spendChecks(recipients: Array<{ workspaceId: string; key: string }>) {
    const result = await this.pool.query<VerificationRow>(
      `UPDATE ${TABLE} v SET checks = v.checks + 1, updated_at = clock_timestamp()
       FROM unnest($1::text[], $2::text[]) AS r(workspace_id, recipient_key)
       WHERE v.workspace_id = r.workspace_id AND v.recipient_key = r.recipient_key
         AND v.status = 'pending' AND v.checks < v.max_checks
       RETURNING v.*`,
      [recipients.map((r) => r.workspaceId), recipients.map((r) => r.key)],
    );
    return result.rows;
  }

  /** The pending verifications of many recipients (those whose checks ran out, in a batch). */
  async pendingOf(runner: SqlRunner, recipients: Array<{ workspaceId: string; key: string }>) {
    return rowsOf<VerificationRow>(
      await runner.query(
        `SELECT v.* FROM ${TABLE} v
         JOIN unnest($1::text[], $2::text[]) AS r(workspace_id, recipient_key)
           ON v.workspace_id = r.workspace_id AND v.recipient_key = r.recipient_key
         WHERE v.status = 'pending'`,
        [recipients.map((r) => r.workspaceId), recipients.map((r) => r.key)],
      ),
    );
  }

  /** `finish` for many verifications in one statement; answers the rows it ended. */
  async finishMany(
    runner: SqlRunner,
    ends: Array<{ id: string; status: 'verified' | 'failed' | 'expired'; reason: string | null }>,
  ): Promise<VerificationRow[]> {
    if (ends.length === 0) return [];
    return rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} v SET status = e.status, reason = e.reason, code_hashes = '{}',
           verified_at = CASE WHEN e.status = 'verified' THEN clock_timestamp() END,
           updated_at = clock_timestamp()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS e(id, status, reason)
         WHERE v.id = e.id AND v.status = 'pending'
         RETURNING v.*`,
        [ends.map((e) => e.id), ends.map((e) => e.status), ends.map((e) => e.reason)],
      ),
    );
  }

  async findPending(runner: SqlRunner, workspaceId: string, recipientKey: string) {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `SELECT * FROM ${TABLE} WHERE workspace_id = $1 AND recipient_key = $2 AND status = 'pending'`,
        [workspaceId, recipientKey],
      ),
    );
    return rows[0];
  }

  async find(workspaceId: string, id: string): Promise<VerificationRow | undefined> {
    const rows = await this.pool.query<VerificationRow>(
      `SELECT * FROM ${TABLE} WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, id],
    );
    return rows.rows[0];
  }

  /** The sends to `address` that spent a slot in the last hour, oldest first (the cap's window). */
  async slotsSpent(runner: SqlRunner, workspaceId: string, address: string): Promise<Date[]> {
    const rows = rowsOf<{ created_at: Date }>(
      await runner.query(
        `SELECT created_at FROM ${ATTEMPTS}
         WHERE workspace_id = $1 AND address = $2 AND counts_toward_cap
           AND created_at > clock_timestamp() - interval '1 hour'
         ORDER BY created_at`,
        [workspaceId, address],
      ),
    );
    return rows.map((row) => row.created_at);
  }

  async insertAttempt(
    runner: SqlRunner,
    attempt: Pick<AttemptRow, 'id' | 'workspace_id' | 'verification_id' | 'channel' | 'address'> & {
      countsTowardCap: boolean;
    },
  ): Promise<void> {
    await runner.query(
      `INSERT INTO ${ATTEMPTS} (id, workspace_id, verification_id, channel, address, status,
         counts_toward_cap)
       VALUES ($1, $2, $3, $4, $5, 'sending', $6)`,
      [
        attempt.id,
        attempt.workspace_id,
        attempt.verification_id,
        attempt.channel,
        attempt.address,
        attempt.countsTowardCap,
      ],
    );
  }

  /** The channel took the send: the attempt is `sent` and the verification's current channel moves. */
  async attemptSent(
    runner: SqlRunner,
    attemptId: string,
    verificationId: string,
    sent: { messageId: string; sender: string | null; channel: string; channelIndex: number },
  ) {
    await runner.query(
      `UPDATE ${ATTEMPTS} SET status = 'sent', message_id = $2, sender = $3,
         updated_at = clock_timestamp() WHERE id = $1`,
      [attemptId, sent.messageId, sent.sender],
    );
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} SET last_channel = $2, channel_index = $3, updated_at = clock_timestamp()
         WHERE id = $1 RETURNING *`,
        [verificationId, sent.channel, sent.channelIndex],
      ),
    );
    return rows[0];
  }

  /** The channel refused the send; the plan's position moves past it all the same. */
  async attemptRefused(
    runner: SqlRunner,
    attemptId: string,
    verificationId: string,
    refusal: { reason: string; error: string; channelIndex: number },
  ) {
    await runner.query(
      `UPDATE ${ATTEMPTS} SET status = 'undelivered', reason = $2, error = $3,
         updated_at = clock_timestamp() WHERE id = $1`,
      [attemptId, refusal.reason, refusal.error.slice(0, 500)],
    );
    await runner.query(
      `UPDATE ${TABLE} SET channel_index = GREATEST(channel_index, $2), updated_at = clock_timestamp()
       WHERE id = $1`,
      [verificationId, refusal.channelIndex],
    );
  }

  /**
   * Delivery outcomes of sent attempts, by the channel's message id: only `sent` attempts move,
   * so an outcome seen twice changes nothing the second time. Answers the attempts moved.
   */
  async recordOutcomes(
    runner: SqlRunner,
    outcomes: Array<{ messageId: string; delivered: boolean; reason: string | null }>,
  ): Promise<AttemptRow[]> {
    if (outcomes.length === 0) return [];
    return rowsOf<AttemptRow>(
      await runner.query(
        `UPDATE ${ATTEMPTS} a
         SET status = CASE WHEN o.delivered THEN 'delivered' ELSE 'undelivered' END,
             reason = o.reason, updated_at = clock_timestamp()
         FROM unnest($1::text[], $2::boolean[], $3::text[]) AS o(message_id, delivered, reason)
         WHERE a.message_id = o.message_id AND a.status = 'sent'
         RETURNING a.*`,
        [
          outcomes.map((outcome) => outcome.messageId),
          outcomes.map((outcome) => outcome.delivered),
          outcomes.map((outcome) => outcome.reason),
        ],
      ),
    );
  }

  /** Verifications by id (any workspace: the caller holds ids from its own attempts). */
  async byIds(runner: SqlRunner, ids: string[]): Promise<VerificationRow[]> {
    if (ids.length === 0) return [];
    return rowsOf<VerificationRow>(
      await runner.query(`SELECT * FROM ${TABLE} WHERE id = ANY($1::text[])`, [ids]),
    );
  }

  /** Whether every attempt of the verification was undelivered. */
  async allUndelivered(runner: SqlRunner, verificationId: string): Promise<boolean> {
    const rows = rowsOf<{ open: number }>(
      await runner.query(
        `SELECT count(*) FILTER (WHERE status <> 'undelivered')::int AS open FROM ${ATTEMPTS}
         WHERE verification_id = $1`,
        [verificationId],
      ),
    );
    return rows[0].open === 0;
  }

  events(runner: SqlRunner, events: OutboxEvent[]): Promise<void> {
    return events.length === 0 ? Promise.resolve() : writeOutboxEvents(runner, SCHEMA, events);
  }
}
