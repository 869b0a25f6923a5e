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
   * The sends to `address` that spent a slot in the last hour, oldest first (the cap's window).
   * The caller holds the address's lock (`lockRecipients`), so verifications of one address
   * count in turn and none passes the cap.
   */
  async slotsSpent(runner: SqlRunner, workspaceId: string, address: string): Promise<Date[]> {
    return (
      (await this.slotsSpentMany(runner, [{ workspaceId, address }])).get(
        `${workspaceId} ${address}`,
      ) ?? []
    );
  }

  /**
   * `slotsSpent` for many addresses in one statement, by `workspace address`. An address may be
   * asked for more than once (recipients sharing a phone number): each slot still counts once.
   */
  async slotsSpentMany(
    runner: SqlRunner,
    addresses: Array<{ workspaceId: string; address: string }>,
  ): Promise<Map<string, Date[]>> {
    const rows = rowsOf<{ workspace_id: string; address: string; sent: Date[] }>(
      await runner.query(
        `SELECT a.workspace_id, a.address, array_agg(a.created_at ORDER BY a.created_at) AS sent
         FROM ${ATTEMPTS} a
         JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS r(workspace_id, address)
           ON a.workspace_id = r.workspace_id AND a.address = r.address
         WHERE a.counts_toward_cap AND a.created_at > clock_timestamp() - interval '1 hour'
         GROUP BY a.workspace_id, a.address`,
        [addresses.map((a) => a.workspaceId), addresses.map((a) => a.address)],
      ),
    );
    return new Map(rows.map((row) => [`${row.workspace_id} ${row.address}`, row.sent]));
  }

  /** First attempts of new verifications, in one statement. */
  async insertFirstAttempts(
    runner: SqlRunner,
    attempts: Array<
      Pick<
        AttemptRow,
        'id' | 'workspace_id' | 'verification_id' | 'channel' | 'address' | 'passcode_seed'
      >
    >,
  ): Promise<void> {
    if (attempts.length === 0) return;
    await runner.query(
      `INSERT INTO ${ATTEMPTS} (id, workspace_id, verification_id, channel, address, passcode_seed,
         status, counts_toward_cap)
       SELECT x.id, x.workspace_id, x.verification_id, x.channel, x.address, x.passcode_seed,
         'sending', true
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, workspace_id text, verification_id text,
         channel text, address text, passcode_seed text)`,
      [JSON.stringify(attempts)],
    );
  }

  /**
   * An attempt `sending`; `unclaimed`, one nobody sends yet, as if its lease had run out: the
   * next sweep of stalled attempts sends it.
   */
  async insertAttempt(
    runner: SqlRunner,
    attempt: Pick<AttemptRow, 'id' | 'workspace_id' | 'verification_id' | 'channel' | 'address'> & {
      seed: string;
      countsTowardCap: boolean;
      unclaimed?: boolean;
    },
  ): Promise<boolean> {
    const inserted = rowsOf<{ id: string }>(
      await runner.query(
        `INSERT INTO ${ATTEMPTS} (id, workspace_id, verification_id, channel, address,
           passcode_seed, status, counts_toward_cap, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'sending', $7,
           CASE WHEN $8 THEN '-infinity'::timestamptz ELSE clock_timestamp() END)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [
          attempt.id,
          attempt.workspace_id,
          attempt.verification_id,
          attempt.channel,
          attempt.address,
          attempt.seed,
          attempt.countsTowardCap,
          attempt.unclaimed ?? false,
        ],
      ),
    );
    return inserted.length > 0;
  }

  /**
   * The channel took the sends (the seeds are no longer needed), in one statement; answers the
   * ids moved. Only attempts still
   * `sending` move: a second answer for one attempt (two runs that asked at once), or one for an
   * attempt closed meanwhile, changes nothing.
   */
  async markSentMany(
    runner: SqlRunner,
    sent: Array<{ attemptId: string; messageId: string; sender: string | null }>,
  ): Promise<Set<string>> {
    const moved = rowsOf<{ id: string }>(
      await runner.query(
        `UPDATE ${ATTEMPTS} a SET status = 'sent', message_id = s.message_id, sender = s.sender,
           passcode_seed = NULL, updated_at = clock_timestamp()
         FROM unnest($1::text[], $2::text[], $3::text[]) AS s(id, message_id, sender)
         WHERE a.id = s.id AND a.status = 'sending'
         RETURNING a.id`,
        [sent.map((s) => s.attemptId), sent.map((s) => s.messageId), sent.map((s) => s.sender)],
      ),
    );
    return new Set(moved.map((row) => row.id));
  }

  /**
   * The channel refused the send; the seed is no longer needed. False when the attempt was no
   * longer `sending` (another run has its answer).
   */
  async markRefused(
    runner: SqlRunner,
    attemptId: string,
    refusal: { reason: string; error: string },
  ): Promise<boolean> {
    const result = await runner.query(
      `UPDATE ${ATTEMPTS} SET status = 'undelivered', reason = $2, error = $3,
         passcode_seed = NULL, updated_at = clock_timestamp() WHERE id = $1 AND status = 'sending'
         RETURNING id`,
      [attemptId, refusal.reason, refusal.error.slice(0, 500)],
    );
    return rowsOf(result).length > 0;
  }

  /**
   * Delivery outcomes of sent attempts, by the channel's message id, or by the attempt's id when
   * the outcome came before the channel's acceptance was recorded (the attempt still `sending`:
   * it takes the message id here, `early` in the answer, and the late acceptance then changes
   * nothing). Only `sent` and `sending` attempts move, so an outcome seen twice changes nothing
   * the second time. Answers the attempts moved.
   */
  async recordOutcomes(
    runner: SqlRunner,
    outcomes: Array<{
      workspaceId: string;
      messageId: string;
      attemptId: string | null;
      delivered: boolean;
      reason: string | null;
    }>,
  ): Promise<Array<AttemptRow & { early: boolean }>> {
    if (outcomes.length === 0) return [];
    return rowsOf<AttemptRow & { early: boolean }>(
      await runner.query(
        `WITH o AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::text[], $5::text[])
             AS o(workspace_id, message_id, delivered, reason, attempt_id)
         ), t AS (
           SELECT a.id, o.message_id, o.delivered, o.reason, a.status = 'sending' AS early
           FROM ${ATTEMPTS} a JOIN o ON a.workspace_id = o.workspace_id
             AND ((a.message_id = o.message_id AND a.status = 'sent')
               OR (a.id = o.attempt_id AND a.status = 'sending'))
           FOR UPDATE OF a
         )
         UPDATE ${ATTEMPTS} a
         SET status = CASE WHEN t.delivered THEN 'delivered' ELSE 'undelivered' END,
             reason = t.reason, message_id = t.message_id, passcode_seed = NULL,
             updated_at = clock_timestamp()
         FROM t WHERE a.id = t.id
         RETURNING a.*, t.early`,
        [
          outcomes.map((outcome) => outcome.workspaceId),
          outcomes.map((outcome) => outcome.messageId),
          outcomes.map((outcome) => outcome.delivered),
          outcomes.map((outcome) => outcome.reason),
          outcomes.map((outcome) => outcome.attemptId),
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
