import { newId } from '@switchboard/persistence';
import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../database/sms-whatsapp.database';
import { SmsRetention } from './sms-retention';
import { SmsRetentionRepository } from './sms-retention.repository';

const WORKSPACE = 'ws_sms_retention_test';
const DAY_MS = 86_400_000;

describe(SmsRetention.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  /** A delivered message `daysAgo` old (its id made then, as the accept makes it) and its rows. */
  async function message(daysAgo: number): Promise<string> {
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    const id = newId('sms', at.getTime());
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_messages (id, workspace_id, direction, status, from_address,
         to_address, country_code, category, text, segments, encoding, characters, created_at,
         status_at)
       VALUES ($1, $2, 'outbound', 'delivered', 'Acme', '+31612340001', 'NL', 'service', 'Hi', 1,
         'GSM_7BIT', 2, $3, $3)`,
      [id, WORKSPACE, at],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_message_events (id, message_id, workspace_id, type, occurred_at)
       VALUES ($1, $2, $3, 'sms.accepted', $4)`,
      [newId('sme', at.getTime()), id, WORKSPACE, at],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_message_parts (message_id, part_index, workspace_id, carrier,
         carrier_message_id, match_key) VALUES ($1, 0, $2, 'nl', $1, $1)`,
      [id, WORKSPACE],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.stats_folded_events (message_id, type) VALUES ($1, 'sms.accepted')`,
      [id],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_unroutable_inbound (carrier, from_address, to_address, text,
         received_at) VALUES ('nl', '31655550001', '31612347777', 'Anyone?', $1)`,
      [at],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_inbound_parts (carrier, from_address, to_address, reference,
         total, sequence, text_utf16, received_at)
       VALUES ('nl', '+31655550001', $1, 7, 2, 1, convert_to('Half a', 'UTF8'), $2)`,
      [id, at],
    );
    return id;
  }

  const idsIn = async (table: string, column = 'message_id') =>
    (await dataSource.query<Array<{ id: string }>>(`SELECT ${column} AS id FROM ${table}`))
      .map((row) => row.id)
      .sort();

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        ENCRYPTION_KEY: 'an encryption key for the retention tests',
      } as SmsWhatsappConfig),
    );
    dataSource = database.dataSource;
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it('deletes messages past 30 days with their timelines, parts, stats keys and unroutable inbound, and parts of long inbound messages after a day', async () => {
    const fresh = await message(1);
    const month = await message(29);
    await message(32);
    await message(90);
    await dataSource.query(
      `INSERT INTO sms_whatsapp.sms_inbound_parts (carrier, from_address, to_address, reference,
         total, sequence, text_utf16, received_at)
       VALUES ('nl', '+31655550002', '+31612340000', 8, 2, 1, convert_to('Waiting', 'UTF8'), now())`,
    );
    const retention = new SmsRetention(new SmsRetentionRepository(dataSource));
    expect(await retention.expire()).toEqual({ deleted: 2, unroutable: 2, parts: 4 });
    const kept = [fresh, month].sort();
    expect(await idsIn('sms_whatsapp.sms_messages', 'id')).toEqual(kept);
    expect(await idsIn('sms_whatsapp.sms_message_events')).toEqual(kept);
    expect(await idsIn('sms_whatsapp.sms_message_parts')).toEqual(kept);
    expect(await idsIn('sms_whatsapp.stats_folded_events')).toEqual(kept);
    expect(await idsIn('sms_whatsapp.sms_unroutable_inbound', 'id')).toHaveLength(2);
    // A part received just now still waits for the rest of its message.
    expect(await idsIn('sms_whatsapp.sms_inbound_parts', 'reference::text')).toEqual(['8']);
    expect(await retention.expire()).toEqual({ deleted: 0, unroutable: 0, parts: 0 });
  });
});
