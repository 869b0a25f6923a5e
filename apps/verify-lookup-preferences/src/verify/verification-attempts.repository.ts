import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { pgPoolOf, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

export interface AttemptRow {
  id: string;
  workspace_id: string;
  verification_id: string;
  channel: string;
  address: string;
  passcode_seed: string;
  sender: string | null;
  message_id: string | null;
  status: 'sending' | 'sent' | 'delivered' | 'undelivered';
  reason: string | null;
}

const SCHEMA = 'verify_lookup_preferences';
const VERIFICATIONS = `${SCHEMA}.verifications`;
const ATTEMPTS = `${SCHEMA}.verification_attempts`;

/**
 * Named queries over the attempts of verifications: each send of a passcode, its channel's
 * message and outcome, and the hourly cap they count toward. Scoped by workspace, or by ids the
 * caller read in its own workspace.
 */
@Injectable()
export class VerificationAttemptsRepository {
  private readonly pool: Pool;

  constructor(@InjectDataSource(SCHEMA) dataSource: DataSource) {
    this.pool = pgPoolOf(dataSource);
  }

  /**
   * The sends to `address` that spent a slot in the last hour, oldest first (the cap's window),
   * under a lock on the address till the caller's commit: two verifications of one address
   * (its own, and one with both addresses) count in turn, so none passes the cap.
   */
  async slotsSpent(runner: SqlRunner, workspaceId: string, address: string): Promise<Date[]> {
    await runner.query(
      `SELECT pg_advisory_xact_lock(hashtextextended($1::text || ' address ' || $2::text, 13))`,
      [workspaceId, address],
    );
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
      seed: string;
      countsTowardCap: boolean;
    },
  ): Promise<boolean> {
    const inserted = rowsOf<{ id: string }>(
      await runner.query(
        `INSERT INTO ${ATTEMPTS} (id, workspace_id, verification_id, channel, address,
           passcode_seed, status, counts_toward_cap)
         VALUES ($1, $2, $3, $4, $5, $6, 'sending', $7)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [
          attempt.id,
          attempt.workspace_id,
          attempt.verification_id,
          attempt.channel,
          attempt.address,
          attempt.seed,
          attempt.countsTowardCap,
        ],
      ),
    );
    return inserted.length > 0;
  }

  /** The channel took the send; the seed is no longer needed. */
  async markSent(
    runner: SqlRunner,
    attemptId: string,
    sent: { messageId: string; sender: string | null },
  ): Promise<void> {
    await runner.query(
      `UPDATE ${ATTEMPTS} SET status = 'sent', message_id = $2, sender = $3,
         passcode_seed = NULL, updated_at = clock_timestamp() WHERE id = $1`,
      [attemptId, sent.messageId, sent.sender],
    );
  }

  /** The channel refused the send; the seed is no longer needed. */
  async markRefused(
    runner: SqlRunner,
    attemptId: string,
    refusal: { reason: string; error: string },
  ): Promise<void> {
    await runner.query(
      `UPDATE ${ATTEMPTS} SET status = 'undelivered', reason = $2, error = $3,
         passcode_seed = NULL, updated_at = clock_timestamp() WHERE id = $1`,
      [attemptId, refusal.reason, refusal.error.slice(0, 500)],
    );
  }

  /**
   * Delivery outcomes of sent attempts, by the channel's message id: only `sent` attempts move,
   * so an outcome seen twice changes nothing the second time. Answers the attempts moved.
   */
  async recordOutcomes(
    runner: SqlRunner,
    outcomes: Array<{
      workspaceId: string;
      messageId: string;
      delivered: boolean;
      reason: string | null;
    }>,
  ): Promise<AttemptRow[]> {
    if (outcomes.length === 0) return [];
    return rowsOf<AttemptRow>(
      await runner.query(
        `UPDATE ${ATTEMPTS} a
         SET status = CASE WHEN o.delivered THEN 'delivered' ELSE 'undelivered' END,
             reason = o.reason, updated_at = clock_timestamp()
         FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[])
           AS o(workspace_id, message_id, delivered, reason)
         WHERE a.workspace_id = o.workspace_id AND a.message_id = o.message_id
           AND a.status = 'sent'
         RETURNING a.*`,
        [
          outcomes.map((outcome) => outcome.workspaceId),
          outcomes.map((outcome) => outcome.messageId),
          outcomes.map((outcome) => outcome.delivered),
          outcomes.map((outcome) => outcome.reason),
        ],
      ),
    );
  }

  /**
   * The channel that carried the passcode first sent with `attemptId`: the last of its attempts
   * (the first, or a fallback `<id>.<index>`) that the channel took.
   */
  async channelOf(runner: SqlRunner, workspaceId: string, attemptId: string) {
    const rows = rowsOf<{ channel: string }>(
      await runner.query(
        `SELECT channel FROM ${ATTEMPTS}
         WHERE workspace_id = $1 AND (id = $2 OR id LIKE $2 || '.%')
           AND status IN ('sent', 'delivered')
         ORDER BY created_at DESC LIMIT 1`,
        [workspaceId, attemptId],
      ),
    );
    return rows[0]?.channel;
  }

  async statusOf(runner: SqlRunner, attemptId: string): Promise<AttemptRow['status'] | undefined> {
    const rows = rowsOf<{ status: AttemptRow['status'] }>(
      await runner.query(`SELECT status FROM ${ATTEMPTS} WHERE id = $1`, [attemptId]),
    );
    return rows[0]?.status;
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

  /**
   * Attempts still `sending` a lease after they were last touched (their process went away
   * between the commit and the channel's answer), of verifications still pending: each claimed
   * for another lease, so one sweeper sends each.
   */
  async claimStalledAttempts(leaseSeconds: number, limit: number): Promise<AttemptRow[]> {
    const claimed = await this.pool.query<AttemptRow>(
      `WITH stalled AS (
         SELECT a.id FROM ${ATTEMPTS} a JOIN ${VERIFICATIONS} v ON v.id = a.verification_id
         WHERE a.status = 'sending' AND a.updated_at < clock_timestamp() - make_interval(secs => $1)
           AND v.status = 'pending' AND v.expires_at > clock_timestamp()
         ORDER BY a.updated_at LIMIT $2 FOR UPDATE OF a SKIP LOCKED)
       UPDATE ${ATTEMPTS} a SET updated_at = clock_timestamp() FROM stalled
       WHERE a.id = stalled.id
       RETURNING a.*`,
      [leaseSeconds, limit],
    );
    return claimed.rows;
  }

  /** Attempts left `sending` by verifications that ended meanwhile: they will never go out. */
  async abandonStalledAttempts(leaseSeconds: number): Promise<number> {
    const result = await this.pool.query(
      `UPDATE ${ATTEMPTS} a SET status = 'undelivered', reason = 'delivery_timeout',
         updated_at = clock_timestamp()
       FROM ${VERIFICATIONS} v
       WHERE v.id = a.verification_id AND a.status = 'sending'
         AND a.updated_at < clock_timestamp() - make_interval(secs => $1)
         AND (v.status <> 'pending' OR v.expires_at <= clock_timestamp())`,
      [leaseSeconds],
    );
    return result.rowCount ?? 0;
  }
}
