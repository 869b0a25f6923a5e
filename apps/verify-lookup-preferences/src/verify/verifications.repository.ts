import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { writeOutboxEvents } from '@switchboard/background';
import { pgPoolOf, poolRunner, preparedRunner, rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { OutboxEvent } from '@switchboard/platform';
import type { Recipient } from './verification-rules';
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
  code_attempts: string[];
  checks: number;
  max_checks: number;
  metadata: Record<string, unknown> | null;
  last_sent_at: Date | null;
  expires_at: Date;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const SCHEMA = 'verify_lookup_preferences';
const TABLE = `${SCHEMA}.verifications`;

/** Named queries over verifications; every one is scoped by workspace (or by ids read in it). */
@Injectable()
export class VerificationsRepository {
  readonly pool: Pool;
  /** Statements outside a transaction, answering rows as a transaction's runner does. */
  readonly reads: SqlRunner;
  /** The hot statements of fixed text (a batch of checks), planned once per connection. */
  private readonly prepared: SqlRunner;

  constructor(@InjectDataSource(SCHEMA) dataSource: DataSource) {
    this.pool = pgPoolOf(dataSource);
    this.reads = poolRunner(dataSource);
    this.prepared = preparedRunner(this.pool);
  }

  /**
   * Serialises the recipient's writes (a transaction-scoped advisory lock: it may have no row
   * yet) and reads its verification in progress.
   */
  async lockPending(
    runner: SqlRunner,
    workspaceId: string,
    recipient: Recipient,
  ): Promise<VerificationRow | undefined> {
    await this.lockRecipients(runner, [{ workspaceId, recipient }]);
    const recipientKey = recipient.key;
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `SELECT * FROM ${TABLE} WHERE workspace_id = $1 AND recipient_key = $2 AND status = 'pending'`,
        [workspaceId, recipientKey],
      ),
    );
    return rows[0];
  }

  /**
   * Serialises the writes of these recipients and of their addresses (transaction-scoped
   * advisory locks, taken in one order by every caller so none waits on another in a cycle):
   * a recipient's verification in progress, and an address's hourly cap, which verifications of
   * several recipients (an address alone, or with another) share.
   */
  async lockRecipients(
    runner: SqlRunner,
    recipients: Array<{ workspaceId: string; recipient: Recipient }>,
  ): Promise<void> {
    const keys = recipients.flatMap(({ workspaceId, recipient }) => [
      `${workspaceId} ${recipient.key}`,
      ...[recipient.email, recipient.phoneNumber].flatMap((address) =>
        address ? [`${workspaceId} address ${address}`] : [],
      ),
    ]);
    await runner.query(
      `SELECT pg_advisory_xact_lock(h)
       FROM (SELECT DISTINCT hashtextextended(k, 13) AS h FROM unnest($1::text[]) AS k ORDER BY 1) s`,
      [keys],
    );
  }

  /** New verifications, each with its first passcode's hash and attempt id, in one statement. */
  async insertMany(
    runner: SqlRunner,
    rows: Array<
      Pick<
        VerificationRow,
        | 'id'
        | 'workspace_id'
        | 'recipient_key'
        | 'email'
        | 'phone_number'
        | 'channels'
        | 'language'
        | 'code_length'
        | 'max_checks'
        | 'metadata'
        | 'last_sent_at'
        | 'expires_at'
      > & { hash: Buffer; attemptId: string }
    >,
  ): Promise<VerificationRow[]> {
    if (rows.length === 0) return [];
    return rowsOf<VerificationRow>(
      await runner.query(
        `INSERT INTO ${TABLE} (id, workspace_id, recipient_key, email, phone_number, status,
           channels, channel_index, language, code_length, code_hashes, code_attempts, checks,
           max_checks, metadata, last_sent_at, expires_at)
         SELECT x.id, x.workspace_id, x.recipient_key, x.email, x.phone_number, 'pending',
           x.channels, 0, x.language, x.code_length, ARRAY[decode(x.hash, 'hex')],
           ARRAY[x.attempt_id], 0, x.max_checks, x.metadata, x.last_sent_at, x.expires_at
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, workspace_id text, recipient_key text,
           email text, phone_number text, channels text[], language text, code_length int,
           hash text, attempt_id text, max_checks int, metadata jsonb, last_sent_at timestamptz,
           expires_at timestamptz)
         RETURNING *`,
        [
          JSON.stringify(
            // Named fields only: nothing else of the caller's (never a passcode) reaches SQL.
            rows.map((row) => ({
              id: row.id,
              workspace_id: row.workspace_id,
              recipient_key: row.recipient_key,
              email: row.email,
              phone_number: row.phone_number,
              channels: row.channels,
              language: row.language,
              code_length: row.code_length,
              hash: row.hash.toString('hex'),
              attempt_id: row.attemptId,
              max_checks: row.max_checks,
              metadata: row.metadata,
              last_sent_at: row.last_sent_at,
              expires_at: row.expires_at,
            })),
          ),
        ],
      ),
    );
  }

  /** A fresh passcode's hash joins the valid ones, with its first attempt; it is sent now. */
  async addPasscode(runner: SqlRunner, id: string, hash: Buffer, attemptId: string, at: Date) {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} SET code_hashes = code_hashes || $2::bytea,
           code_attempts = code_attempts || $3::text, last_sent_at = $4,
           updated_at = clock_timestamp()
         WHERE id = $1 RETURNING *`,
        [id, hash, attemptId, at],
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
        `UPDATE ${TABLE} SET status = $2, reason = $3, code_hashes = '{}', code_attempts = '{}',
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
    return rowsOf<VerificationRow>(
      await this.prepared.query(
        `UPDATE ${TABLE} v SET checks = v.checks + 1, updated_at = clock_timestamp()
       FROM unnest($1::text[], $2::text[]) AS r(workspace_id, recipient_key)
       WHERE v.workspace_id = r.workspace_id AND v.recipient_key = r.recipient_key
         AND v.status = 'pending' AND v.checks < v.max_checks
       RETURNING v.*`,
        [recipients.map((r) => r.workspaceId), recipients.map((r) => r.key)],
      ),
    );
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
           code_attempts = '{}',
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

  /**
   * The channel took the send: it is the last channel, and the plan's position moves forward
   * (never back: a resend on an earlier channel races a next-channel).
   */
  async channelSent(runner: SqlRunner, id: string, channel: string, channelIndex: number) {
    const rows = rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} SET last_channel = $2, channel_index = GREATEST(channel_index, $3),
           updated_at = clock_timestamp()
         WHERE id = $1 RETURNING *`,
        [id, channel, channelIndex],
      ),
    );
    return rows[0];
  }

  /** `channelSent` for many verifications in one statement (one channel each). */
  async channelSentMany(
    runner: SqlRunner,
    sent: Array<{ verificationId: string; channel: string; index: number }>,
  ): Promise<VerificationRow[]> {
    return rowsOf<VerificationRow>(
      await runner.query(
        `UPDATE ${TABLE} v SET last_channel = s.channel,
           channel_index = GREATEST(v.channel_index, s.index), updated_at = clock_timestamp()
         FROM unnest($1::text[], $2::text[], $3::int[]) AS s(id, channel, index)
         WHERE v.id = s.id
         RETURNING v.*`,
        [sent.map((s) => s.verificationId), sent.map((s) => s.channel), sent.map((s) => s.index)],
      ),
    );
  }

  /** A channel refused the send: the plan's position moves past it all the same. */
  /**
   * Takes the verification's recipient lock (the one `lockPending` takes first) and reads where
   * its plan stands: a fall-through to the next channel waits for a next-channel call in flight.
   */
  async lockPlan(runner: SqlRunner, row: VerificationRow): Promise<number | undefined> {
    await runner.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 13))', [
      `${row.workspace_id} ${row.recipient_key}`,
    ]);
    const rows = rowsOf<{ channel_index: number }>(
      await runner.query(`SELECT channel_index FROM ${TABLE} WHERE id = $1`, [row.id]),
    );
    return rows[0]?.channel_index;
  }

  async channelPassed(runner: SqlRunner, id: string, channelIndex: number): Promise<void> {
    await runner.query(
      `UPDATE ${TABLE} SET channel_index = GREATEST(channel_index, $2), updated_at = clock_timestamp()
       WHERE id = $1`,
      [id, channelIndex],
    );
  }

  /** Verifications by id (any workspace: the caller holds ids from its own attempts). */
  async byIds(runner: SqlRunner, ids: string[]): Promise<VerificationRow[]> {
    if (ids.length === 0) return [];
    return rowsOf<VerificationRow>(
      await runner.query(`SELECT * FROM ${TABLE} WHERE id = ANY($1::text[])`, [ids]),
    );
  }

  events(runner: SqlRunner, events: OutboxEvent[]): Promise<void> {
    return events.length === 0 ? Promise.resolve() : writeOutboxEvents(runner, SCHEMA, events);
  }
}
