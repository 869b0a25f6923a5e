import { randomUUID } from 'node:crypto';
import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../../database/sms-whatsapp.database';
import { InboundRetention } from './media-retention';
import { MediaRepository } from './media.repository';

const WORKSPACE = 'ws_retention_test';

describe(InboundRetention.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  let retention: InboundRetention;

  /** An inbound message created `ageDays` ago, with one media row and one reaction event. */
  async function message(ageDays: number, mediaExpiresInSeconds: number) {
    const id = `wam_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    const mediaId = `waf_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
         content_kind, content, created_at, status_at)
       VALUES ($1, $2, 'inbound', 'received', 'wan_retention', 'image', '{}',
         now() - make_interval(days => $3), now())`,
      [id, WORKSPACE, ageDays],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_media (id, workspace_id, message_id, meta_media_id,
         bytes, size_bytes, status, expires_at)
       VALUES ($1, $2, $3, 'meta-1', '\\x0102'::bytea, 2, 'stored',
         now() + make_interval(secs => $4))`,
      [mediaId, WORKSPACE, id, mediaExpiresInSeconds],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_reaction_events (id, workspace_id, message_id, emoji,
         status, direction, from_address, occurred_at)
       VALUES ($1, $2, $3, '👍', 'received', 'inbound', '{}', now() - make_interval(days => $4))`,
      [`wre_${randomUUID()}`, WORKSPACE, id, ageDays],
    );
    return { id, mediaId };
  }

  const mediaOf = async (mediaId: string) =>
    (
      await dataSource.query<Array<{ status: string; bytes: Buffer | null }>>(
        `SELECT status, bytes FROM sms_whatsapp.whatsapp_media WHERE id = $1`,
        [mediaId],
      )
    )[0];
  const reactionsOf = async (messageId: string) =>
    (
      await dataSource.query<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM sms_whatsapp.whatsapp_reaction_events WHERE message_id = $1`,
        [messageId],
      )
    )[0].n;

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
       VALUES ('waba_retention', $1, '999', 'Acme')`,
      [WORKSPACE],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, channel_id, name, status)
       VALUES ('wan_retention', $1, 'waba_retention', '888', $2, 'Acme', 'connected')`,
      [WORKSPACE, randomUUID()],
    );
    retention = new InboundRetention(new MediaRepository(dataSource));
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it('deletes the bytes of media past its 30 days and keeps the row as expired', async () => {
    const expired = await message(31, -1);
    const kept = await message(1, 3600);
    await retention.run();
    expect(await mediaOf(expired.mediaId)).toEqual({ status: 'expired', bytes: null });
    expect(await mediaOf(kept.mediaId)).toMatchObject({ status: 'stored' });
    expect((await mediaOf(kept.mediaId)).bytes).toEqual(Buffer.from([1, 2]));
  });

  it('deletes reaction events 30 days after their message was created, not after the reaction', async () => {
    const old = await message(31, 3600);
    const young = await message(29, 3600);
    await retention.run();
    expect(await reactionsOf(old.id)).toBe(0);
    expect(await reactionsOf(young.id)).toBe(1);
  });
});
