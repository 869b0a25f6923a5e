import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type {
  EmailCategory,
  EmailSuppressionCoverage,
  EmailSuppressionOrigin,
  EmailSuppressionReason,
  EmailSuppressionScopeType,
  ListEmailSuppressionsRequest,
} from '@switchboard/contracts';
import { EMAIL_SUPPRESSION_COVERAGE } from '@switchboard/contracts';
import { escapeLike, paginate, poolRunner, rowsOf } from '@switchboard/persistence';
import type { CursorCodec, Page, SqlRunner } from '@switchboard/persistence';
import { DataSource } from 'typeorm';

export interface SuppressionRow {
  id: string;
  workspace_id: string;
  email: string;
  scope_type: EmailSuppressionScopeType;
  reason: EmailSuppressionReason;
  origin: EmailSuppressionOrigin;
  applies_to: EmailSuppressionCoverage;
  source_email_id: string | null;
  source_recipient_id: string | null;
  created_at: Date | string;
}

const SUPPRESSION_COLUMNS =
  'id, workspace_id, email, scope_type, reason, origin, applies_to, source_email_id, source_recipient_id, created_at';

/** One suppression to add from an event of a sent message (a bounce, a complaint). */
export interface SuppressionFromEvent {
  id: string;
  email: string;
  sourceEmailId: string | null;
  sourceRecipientId: string | null;
}

/** Named queries over email.suppressions; every one is scoped by workspace. */
@Injectable()
export class SuppressionsRepository {
  /** Reads outside a transaction go to the driver's pg Pool directly (as the realtime apps do). */
  private readonly reads: SqlRunner;

  constructor(@InjectDataSource('email') dataSource: DataSource) {
    this.reads = poolRunner(dataSource);
  }

  /** A page of the workspace's suppressions, newest first, with the request's filters. */
  list(
    workspaceId: string,
    request: ListEmailSuppressionsRequest,
    cursors: CursorCodec,
  ): Promise<Page<SuppressionRow>> {
    const params: unknown[] = [workspaceId];
    let where = 'workspace_id = $1';
    const email = request.email?.toLowerCase();
    if (email) {
      // The addresses that start with it.
      params.push(`${escapeLike(email)}%`);
      where += ` AND email LIKE $${params.length}`;
    }
    if (request.reason) {
      params.push(request.reason);
      where += ` AND reason = $${params.length}`;
    }
    if (request.scope_type) {
      params.push(request.scope_type);
      where += ` AND scope_type = $${params.length}`;
    }
    return paginate<SuppressionRow>(
      this.reads,
      {
        from: 'email.suppressions',
        select: SUPPRESSION_COLUMNS,
        where: { sql: where, params },
        filters: {
          workspaceId,
          email: email ?? null,
          reason: request.reason ?? null,
          scope_type: request.scope_type ?? null,
        },
        sorts: { created_at: { column: 'created_at', type: 'timestamptz' } },
        defaultSort: 'created_at',
        defaultOrder: 'desc',
        idColumn: 'id',
      },
      {
        limit: request.limit,
        starting_after: request.starting_after,
        ending_before: request.ending_before,
      },
      cursors,
    );
  }

  async find(
    workspaceId: string,
    id: string,
    runner: SqlRunner = this.reads,
  ): Promise<SuppressionRow | undefined> {
    const rows = rowsOf<SuppressionRow>(
      await runner.query(
        `SELECT ${SUPPRESSION_COLUMNS} FROM email.suppressions WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id],
      ),
    );
    return rows[0];
  }

  /**
   * Adds the address for the reason unless it already has a suppression for that reason, and
   * returns the row either way: `created` false for one that existed. A concurrent insert of the
   * same address waits on the unique index and then finds the committed row.
   */
  async insertOrFind(
    runner: SqlRunner,
    row: {
      id: string;
      workspaceId: string;
      email: string;
      reason: EmailSuppressionReason;
      origin: EmailSuppressionOrigin;
    },
  ): Promise<{ created: boolean; row: SuppressionRow }> {
    const inserted = rowsOf<SuppressionRow>(
      await runner.query(
        `INSERT INTO email.suppressions (id, workspace_id, email, reason, origin, applies_to)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (workspace_id, email, reason) DO NOTHING
         RETURNING ${SUPPRESSION_COLUMNS}`,
        [
          row.id,
          row.workspaceId,
          row.email,
          row.reason,
          row.origin,
          EMAIL_SUPPRESSION_COVERAGE[row.reason],
        ],
      ),
    );
    if (inserted[0]) return { created: true, row: inserted[0] };
    const existing = rowsOf<SuppressionRow>(
      await runner.query(
        `SELECT ${SUPPRESSION_COLUMNS} FROM email.suppressions WHERE workspace_id = $1 AND email = $2 AND reason = $3`,
        [row.workspaceId, row.email, row.reason],
      ),
    );
    if (!existing[0]) throw new Error('suppression vanished between its insert and its read');
    return { created: false, row: existing[0] };
  }

  async delete(runner: SqlRunner, workspaceId: string, id: string): Promise<boolean> {
    const rows = rowsOf(
      await runner.query(
        'DELETE FROM email.suppressions WHERE workspace_id = $1 AND id = $2 RETURNING id',
        [workspaceId, id],
      ),
    );
    return rows.length > 0;
  }

  /**
   * The addresses among `emails` (lowercased) with a suppression covering `category`, and, with
   * `preferences`, their revoked statements in the preference projection (ADR 14): one statement
   * for both, so processing reads them in one round trip. A suppression answers `status` null.
   */
  async suppressedAmong(
    runner: SqlRunner,
    workspaceId: string,
    emails: string[],
    category: EmailCategory,
    preferences: boolean,
  ): Promise<Array<{ email: string; status: 'revoked' | null; coverage: string | null }>> {
    const revoked = `UNION ALL
       SELECT handle, status, coverage FROM email.preference_states
       WHERE workspace_id = $1 AND channel = 'email' AND handle = ANY($2::text[])
         AND sender_scope = '' AND status = 'revoked'`;
    return rowsOf(
      await runner.query(
        `SELECT DISTINCT email, NULL AS status, NULL AS coverage FROM email.suppressions
         WHERE workspace_id = $1 AND email = ANY($2::text[]) AND ($3::text = 'marketing' OR applies_to = 'all')
         ${preferences ? revoked : ''}`,
        [workspaceId, emails, category],
      ),
    );
  }

  /** Inserts every entry that has no suppression for `reason` yet, in one statement; returns those added. */
  async insertFromEvents(
    runner: SqlRunner,
    workspaceId: string,
    reason: EmailSuppressionReason,
    origin: EmailSuppressionOrigin,
    entries: SuppressionFromEvent[],
  ): Promise<SuppressionRow[]> {
    return rowsOf<SuppressionRow>(
      await runner.query(
        `INSERT INTO email.suppressions
           (id, workspace_id, email, reason, origin, applies_to, source_email_id, source_recipient_id)
         SELECT entry.id, $1, entry.email, $2, $3, $4, entry.source_email_id, entry.source_recipient_id
         FROM unnest($5::text[], $6::text[], $7::text[], $8::text[])
           AS entry (id, email, source_email_id, source_recipient_id)
         ON CONFLICT (workspace_id, email, reason) DO NOTHING
         RETURNING ${SUPPRESSION_COLUMNS}`,
        [
          workspaceId,
          reason,
          origin,
          EMAIL_SUPPRESSION_COVERAGE[reason],
          entries.map((entry) => entry.id),
          entries.map((entry) => entry.email),
          entries.map((entry) => entry.sourceEmailId),
          entries.map((entry) => entry.sourceRecipientId),
        ],
      ),
    );
  }
}
