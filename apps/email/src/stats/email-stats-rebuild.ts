import { rowsOf, settleRebuiltTables } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { emailFoldStatement } from './email-stats-fold';

export interface EmailRebuildProgress {
  /** Timeline rows read so far, of `total`. */
  read: number;
  total: number;
  /** Events folded into the rollups so far. */
  folded: number;
  /** Set once folding is done, while the rewritten tables are vacuumed: the one in progress. */
  settling?: string;
}

export interface EmailRebuildOptions {
  /** Rebuild one workspace only; every workspace when omitted. */
  workspaceId?: string;
  /** Timeline rows per fold statement. */
  chunk?: number;
  onProgress?: (progress: EmailRebuildProgress) => void;
}

/** The stored timeline as the fold takes events (the bus batch's shape). */
const TIMELINE = `SELECT id AS event_id, message_id, recipient_id, type, occurred_at,
    detail->>'bounce_type' AS bounce_type, detail->>'bounce_code' AS bounce_code,
    detail->>'feedback_type' AS feedback_type,
    coalesce((detail->>'is_prefetched')::boolean, false) AS prefetched,
    detail->>'user_agent' AS user_agent, NULL::text[] AS client
  FROM email.events`;

/**
 * Recomputes the email rollups from the stored timeline (after a restore, or when a dimension
 * changed; ADR 18), as `rebuildStats` does for SMS and WhatsApp: clear the rollups and the fold
 * ledger in one transaction, then fold the timeline in `seq` ranges with the live consumer's own
 * statement, so an event the consumer folds meanwhile is claimed once.
 */
export async function rebuildEmailStats(
  runner: SqlRunner,
  begin: <T>(work: (tx: SqlRunner) => Promise<T>) => Promise<T>,
  options: EmailRebuildOptions,
): Promise<EmailRebuildProgress> {
  const scoped = options.workspaceId !== undefined;
  const where = scoped ? ' WHERE workspace_id = $1' : '';
  const params = scoped ? [options.workspaceId] : [];
  await begin(async (tx) => {
    // Answers kept for the rollups as they were are not answered again.
    await tx.query(`UPDATE email.stats_freshness SET version = version + 1 WHERE stream = 'email'`);
    for (const table of ['email.email_stats_rollups', 'email.email_stats_daily_rollups'])
      await tx.query(`DELETE FROM ${table}${where}`, params);
    await tx.query(
      scoped
        ? `DELETE FROM email.stats_folded_events f WHERE
             (f.key LIKE 'ev:%' AND substr(f.key, 4) IN (SELECT id FROM email.events WHERE workspace_id = $1))
             OR split_part(f.key, ':', 1) IN (SELECT id FROM email.recipients WHERE workspace_id = $1
               UNION ALL SELECT id FROM email.messages WHERE workspace_id = $1)`
        : 'DELETE FROM email.stats_folded_events',
      params,
    );
  });
  const [bounds] = rowsOf<{ low: string | null; high: string | null; total: number }>(
    await runner.query(
      `SELECT min(seq)::text AS low, max(seq)::text AS high, count(*)::int AS total
       FROM email.events${where}`,
      params,
    ),
  );
  const progress: EmailRebuildProgress = { read: 0, total: bounds.total, folded: 0 };
  if (bounds.low === null || bounds.high === null) return progress;
  const chunk = BigInt(options.chunk ?? 50_000);
  const high = BigInt(bounds.high);
  const slice = `WHERE seq >= $1::bigint AND seq < $2::bigint${scoped ? ' AND workspace_id = $3' : ''}`;
  const statement = emailFoldStatement(`${TIMELINE} ${slice}`);
  for (let from = BigInt(bounds.low); from <= high; from += chunk) {
    const sliceParams: unknown[] = [from.toString(), (from + chunk).toString(), ...params];
    const [row] = rowsOf<{ folded: number }>(await runner.query(statement, sliceParams));
    const [counted] = rowsOf<{ n: number }>(
      await runner.query(`SELECT count(*)::int AS n FROM email.events ${slice}`, sliceParams),
    );
    progress.read += counted.n;
    progress.folded += row.folded;
    options.onProgress?.({ ...progress });
  }
  await settleRebuiltTables(
    runner,
    ['email.email_stats_rollups', 'email.email_stats_daily_rollups', 'email.stats_folded_events'],
    (table) => options.onProgress?.({ ...progress, settling: table }),
  );
  return progress;
}
