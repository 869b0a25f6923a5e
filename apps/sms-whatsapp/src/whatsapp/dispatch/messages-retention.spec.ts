import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../../database/sms-whatsapp.database';
import { WhatsAppMessagesRetention } from './messages-retention';
import { MessagesRetentionRepository } from './messages-retention.repository';

const WORKSPACE = 'ws_retention_test';
const DAY_MS = 86_400_000;

describe(WhatsAppMessagesRetention.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  /** An outbound message `daysAgo` old with a wamid, and its accepted event. */
  async function message(id: string, daysAgo: number): Promise<void> {
    const at = new Date(Date.now() - daysAgo * DAY_MS);
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
         content_kind, content, provider_message_id, created_at, status_at)
       VALUES ($1, $2, 'outbound', 'sent', 'wan_retention', 'text', '{"body":"Hi"}', $3, $4, $4)`,
      [id, WORKSPACE, `wamid.${id}`, at],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_message_events (id, message_id, workspace_id, type,
         occurred_at) VALUES ($1, $2, $3, 'whatsapp.accepted', $4)`,
      [`wae_${id}`, id, WORKSPACE, at],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.stats_folded_events (message_id, type)
       VALUES ($1, 'whatsapp.accepted')`,
      [id],
    );
  }

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        ENCRYPTION_KEY: 'an encryption key for the retention tests',
      } as SmsWhatsappConfig),
    );
    dataSource = database.dataSource;
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
       VALUES ('waa_retention', $1, 'waba_retention', 'Acme')`,
      [WORKSPACE],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, phone_number, channel_id, name, status)
       VALUES ('wan_retention', $1, 'waa_retention', 'pn_retention', '+31612340000',
         gen_random_uuid(), 'Acme', 'connected')`,
      [WORKSPACE],
    );
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it("clears Meta's id after 15 days and deletes messages, their timelines and stats dedupe keys after 30", async () => {
    await message('wam_fresh', 1);
    await message('wam_sixteen', 16);
    await message('wam_thirtyone', 31);
    const retention = new WhatsAppMessagesRetention(new MessagesRetentionRepository(dataSource));
    expect(await retention.expire()).toEqual({ cleared: 2, deleted: 1 });
    const rows = await dataSource.query<Array<{ id: string; provider_message_id: string | null }>>(
      `SELECT id, provider_message_id FROM sms_whatsapp.whatsapp_messages ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: 'wam_fresh', provider_message_id: 'wamid.wam_fresh' },
      { id: 'wam_sixteen', provider_message_id: null },
    ]);
    const events = await dataSource.query<Array<{ message_id: string }>>(
      `SELECT message_id FROM sms_whatsapp.whatsapp_message_events ORDER BY message_id`,
    );
    expect(events.map((event) => event.message_id)).toEqual(['wam_fresh', 'wam_sixteen']);
    const folded = await dataSource.query<Array<{ message_id: string }>>(
      `SELECT message_id FROM sms_whatsapp.stats_folded_events ORDER BY message_id`,
    );
    expect(folded.map((row) => row.message_id)).toEqual(['wam_fresh', 'wam_sixteen']);
    expect(await retention.expire()).toEqual({ cleared: 0, deleted: 0 });
  });
});
