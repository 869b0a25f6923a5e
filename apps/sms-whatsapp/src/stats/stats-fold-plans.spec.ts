import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../database/sms-whatsapp.database';
import { smsFoldStatement } from './sms-stats-fold';
import { whatsappFoldStatement } from './whatsapp-stats-fold';

const SOURCE = `SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(message_id text, type text, occurred_at timestamptz)`;

/**
 * A fold reads each event's message row. With sequential scans priced out, its plan shows whether
 * it can reach them by primary key: a join the index cannot serve (the fold ledger's "C" collation
 * against the message ids) scans every message per batch, which held ingestion at 1,100 events/s.
 */
describe('stats fold plans', () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        ENCRYPTION_KEY: 'an encryption key for the fold plan tests',
      } as SmsWhatsappConfig),
    );
    dataSource = database.dataSource;
  }, 120_000);

  afterAll(async () => {
    await database?.stop();
  });

  async function planOf(statement: string): Promise<string> {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query('SET LOCAL enable_seqscan = off');
      const events = [{ message_id: 'msg_1', type: 'sms.accepted', occurred_at: new Date() }];
      const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(`EXPLAIN ${statement}`, [
        JSON.stringify(events),
      ]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it.each([
    ['SMS', smsFoldStatement(SOURCE), 'sms_messages'],
    ['WhatsApp', whatsappFoldStatement(SOURCE), 'whatsapp_messages'],
  ])('the %s fold reads its messages by primary key', async (_, statement, table) => {
    const plan = await planOf(statement);
    expect(plan).toContain(`using ${table}_pkey on ${table} m`);
    expect(plan).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
  });
});
