import type { SqlRunner } from '../pagination';

/**
 * Vacuums and analyzes the tables a rebuild rewrote wholesale, so the first dashboards after it
 * do not share the machine with autovacuum (at 1,000,000 messages its passes over the rollups and
 * the fold ledger ran under the first queries and held their p99) and the planner knows the
 * tables' new sizes.
 */
export async function settleRebuiltTables(
  runner: SqlRunner,
  tables: readonly string[],
  onTable: (table: string) => void,
): Promise<void> {
  for (const table of tables) {
    onTable(table);
    await runner.query(`VACUUM (ANALYZE) ${table}`);
  }
}
