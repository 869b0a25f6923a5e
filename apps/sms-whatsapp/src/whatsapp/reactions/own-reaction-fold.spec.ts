import { randomUUID } from 'node:crypto';
import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../../database/sms-whatsapp.database';
import { applyOwnReactionStatuses, foldOwnReactions } from './own-reaction-fold';

const WORKSPACE = 'ws_fold_test';
const FROM = { phone_number: '+15550100001' };

describe('foldOwnReactions', () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;

  async function message(): Promise<string> {
    const id = `wam_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_messages (id, workspace_id, direction, status, number_id,
         content_kind, content, created_at, status_at)
       VALUES ($1, $2, 'inbound', 'received', 'wan_fold', 'text', '{}', now(), now())`,
      [id, WORKSPACE],
    );
    return id;
  }

  async function entry(
    messageId: string,
    emoji: string | null,
    status: string,
    secondsAgo: number,
  ) {
    const wamid = `wamid.${randomUUID()}`;
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_reaction_events (id, workspace_id, message_id, emoji,
         status, direction, from_address, provider_message_id, occurred_at)
       VALUES ($1, $2, $3, $4, $5, 'outbound', $6, $7, now() - make_interval(secs => $8))`,
      [`wre_${randomUUID()}`, WORKSPACE, messageId, emoji, status, FROM, wamid, secondsAgo],
    );
    return wamid;
  }

  const reactionOf = async (id: string) =>
    (
      await dataSource.query<Array<{ reaction: unknown }>>(
        `SELECT reaction FROM sms_whatsapp.whatsapp_messages WHERE id = $1`,
        [id],
      )
    )[0].reaction;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        ENCRYPTION_KEY: 'an encryption key for the fold tests',
      } as SmsWhatsappConfig),
    );
    dataSource = database.dataSource;
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
       VALUES ('waba_fold', $1, '777', 'Acme')`,
      [WORKSPACE],
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, channel_id, name, status)
       VALUES ('wan_fold', $1, 'waba_fold', '666', $2, 'Acme', 'connected')`,
      [WORKSPACE, randomUUID()],
    );
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it('stands the latest reaction WhatsApp took, and nothing after a removal', async () => {
    const id = await message();
    await entry(id, '👍', 'sent', 30);
    await entry(id, '❤️', 'sent', 20);
    await foldOwnReactions(dataSource, { messageIds: [id] });
    expect(await reactionOf(id)).toEqual({ emoji: '❤️', from: FROM });
    await entry(id, null, 'sent', 10);
    await foldOwnReactions(dataSource, { messageIds: [id] });
    expect(await reactionOf(id)).toBeNull();
  });

  it('shows the reaction before one a status webhook reports failed', async () => {
    const id = await message();
    await entry(id, '👍', 'sent', 30);
    const later = await entry(id, '❤️', 'sent', 20);
    await dataSource.query(
      `UPDATE sms_whatsapp.whatsapp_reaction_events SET status = 'failed' WHERE provider_message_id = $1`,
      [later],
    );
    await foldOwnReactions(dataSource, { workspaceId: WORKSPACE, wamids: [later] });
    expect(await reactionOf(id)).toEqual({ emoji: '👍', from: FROM });
  });

  it("applies Meta's statuses to our reactions only, failed winning, and answers their wamids", async () => {
    const id = await message();
    await entry(id, '👍', 'sent', 30);
    const later = await entry(id, '❤️', 'sent', 20);
    await foldOwnReactions(dataSource, { messageIds: [id] });
    const at = String(Math.floor(Date.now() / 1000));
    const failed = { id: later, status: 'failed', timestamp: at, errors: [{ code: 131026 }] };
    const ours = await applyOwnReactionStatuses(dataSource, WORKSPACE, [
      { id: later, status: 'delivered', timestamp: at },
      failed,
      { id: 'wamid.of-a-message', status: 'sent', timestamp: at },
    ]);
    expect([...ours]).toEqual([later]);
    expect(await reactionOf(id)).toEqual({ emoji: '👍', from: FROM });
    // Another workspace names nothing of ours; a later `read` does not revive a failed reaction.
    expect(await applyOwnReactionStatuses(dataSource, 'ws_other', [failed])).toEqual(new Set());
    await applyOwnReactionStatuses(dataSource, WORKSPACE, [
      { id: later, status: 'read', timestamp: at },
    ]);
    const [row] = await dataSource.query<Array<{ status: string; error: unknown }>>(
      `SELECT status, error FROM sms_whatsapp.whatsapp_reaction_events WHERE provider_message_id = $1`,
      [later],
    );
    expect(row).toMatchObject({ status: 'failed', error: { meta_error_code: '131026' } });
  });
});
