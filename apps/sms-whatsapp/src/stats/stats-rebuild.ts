import { rowsOf, settleRebuiltTables } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import { smsFoldStatement } from './sms-stats-fold';
import { whatsappFoldStatement } from './whatsapp-stats-fold';

export type StatsChannel = 'sms' | 'whatsapp';

/** What a channel's rebuild clears and reads: its rollups, its timeline, its fold. */
const CHANNELS: Record<
  StatsChannel,
  { rollups: string[]; timeline: string; types: string; fold: (source: string) => string }
> = {
  sms: {
    rollups: [
      'sms_whatsapp.sms_stats_rollups',
      'sms_whatsapp.sms_stats_daily_rollups',
      'sms_whatsapp.sms_inbound_stats_rollups',
    ],
    timeline: 'sms_whatsapp.sms_message_events',
    types: 'sms.%',
    fold: smsFoldStatement,
  },
  whatsapp: {
    rollups: [
      'sms_whatsapp.whatsapp_stats_rollups',
      'sms_whatsapp.whatsapp_stats_daily_rollups',
      'sms_whatsapp.whatsapp_inbound_stats_rollups',
    ],
    timeline: 'sms_whatsapp.whatsapp_message_events',
    types: 'whatsapp.%',
    fold: whatsappFoldStatement,
  },
};

export interface RebuildProgress {
  /** Timeline rows read so far, of `total`. */
  read: number;
  total: number;
  /** (message, event type) pairs folded into the rollups so far. */
  folded: number;
  /** Set once folding is done, while the rewritten tables are vacuumed: the one in progress. */
  settling?: string;
}

export interface RebuildOptions {
  channel: StatsChannel;
  /** Rebuild one workspace only; every workspace when omitted. */
  workspaceId?: string;
  /** Timeline rows per fold statement. */
  chunk?: number;
  onProgress?: (progress: RebuildProgress) => void;
}

/**
 * Recomputes a channel's rollups from its stored timeline (after a restore, or when a dimension
 * changed; ADR 18). It clears the rollups and the fold ledger (one transaction), then folds the
 * timeline in `seq` ranges with the live consumer's own statement: an event the consumer folds
 * meanwhile is claimed once, by whichever comes first, so the two never count it twice. The
 * timeline keeps what the message tables keep (30 days of messages): older buckets are gone after
 * a rebuild.
 */
export async function rebuildStats(
  runner: SqlRunner,
  begin: <T>(work: (tx: SqlRunner) => Promise<T>) => Promise<T>,
  options: RebuildOptions,
): Promise<RebuildProgress> {
  const channel = CHANNELS[options.channel];
  const scoped = options.workspaceId !== undefined;
  await begin(async (tx) => {
    // Answers kept for the rollups as they were are not answered again.
    await tx.query(
      `UPDATE sms_whatsapp.stats_freshness SET version = version + 1 WHERE stream = $1`,
      [options.channel],
    );
    for (const table of channel.rollups)
      await tx.query(
        `DELETE FROM ${table}${scoped ? ' WHERE workspace_id = $1' : ''}`,
        scoped ? [options.workspaceId] : [],
      );
    await tx.query(
      scoped
        ? `DELETE FROM sms_whatsapp.stats_folded_events f USING ${channel.timeline} e
           WHERE e.message_id = f.message_id AND e.workspace_id = $1 AND f.type LIKE $2`
        : `DELETE FROM sms_whatsapp.stats_folded_events WHERE type LIKE $1`,
      scoped ? [options.workspaceId, channel.types] : [channel.types],
    );
  });
  const [bounds] = rowsOf<{ low: string | null; high: string | null; total: number }>(
    await runner.query(
      `SELECT min(seq)::text AS low, max(seq)::text AS high, count(*)::int AS total FROM ${channel.timeline}
       ${scoped ? 'WHERE workspace_id = $1' : ''}`,
      scoped ? [options.workspaceId] : [],
    ),
  );
  const progress: RebuildProgress = { read: 0, total: bounds.total, folded: 0 };
  if (bounds.low === null || bounds.high === null) return progress;
  const chunk = BigInt(options.chunk ?? 50_000);
  const high = BigInt(bounds.high);
  const statement = channel.fold(
    `SELECT message_id, type, occurred_at FROM ${channel.timeline}
     WHERE seq >= $1::bigint AND seq < $2::bigint${scoped ? ' AND workspace_id = $3' : ''}`,
  );
  for (let from = BigInt(bounds.low); from <= high; from += chunk) {
    const params: unknown[] = [from.toString(), (from + chunk).toString()];
    if (scoped) params.push(options.workspaceId);
    const [row] = rowsOf<{ folded: number }>(await runner.query(statement, params));
    const [counted] = rowsOf<{ n: number }>(
      await runner.query(
        `SELECT count(*)::int AS n FROM ${channel.timeline} WHERE seq >= $1::bigint AND seq < $2::bigint${scoped ? ' AND workspace_id = $3' : ''}`,
        params,
      ),
    );
    progress.read += counted.n;
    progress.folded += row.folded;
    options.onProgress?.({ ...progress });
  }
  await settleRebuiltTables(
    runner,
    [...channel.rollups, 'sms_whatsapp.stats_folded_events'],
    (table) => options.onProgress?.({ ...progress, settling: table }),
  );
  return progress;
}
