import type { RequestContext } from '@switchboard/contracts';
import { SealedBox } from '@switchboard/platform';
import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import { parseSmppUrl } from '../../carriers/smpp-url';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../../database/sms-whatsapp.database';
import { AcceptRepository } from './accept.repository';
import { SenderRules } from './sender-rules';
import { SendService } from './send.service';

/** Keyed system sends on two replicas of the service, over one database. */
describe(`${SendService.name}: a system send's dedupe_key`, () => {
  let database: MigratedDatabase;
  let replicas: SendService[];
  const context: RequestContext = {
    requestId: 'req_keyed',
    workspaceId: 'ws_keyed',
    caller: { kind: 'operator' },
  };

  beforeAll(async () => {
    const config = {
      DATABASE_URL: '',
      DATABASE_POOL_SIZE: 4,
      ENCRYPTION_KEY: 'an encryption key for the send tests',
      SMPP_URL: parseSmppUrl('smpp://sb:pw@127.0.0.1:2775'),
      PREFERENCES_ENFORCEMENT: false,
    } as unknown as SmsWhatsappConfig;
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({ ...config, DATABASE_URL: url }),
    );
    await database.dataSource.query(
      `INSERT INTO sms_whatsapp.sms_senders (id, workspace_id, sender) VALUES ('snd_1', $1, 'Acme')`,
      [context.workspaceId],
    );
    const box = new SealedBox(config.ENCRYPTION_KEY);
    replicas = [0, 1].map(() => {
      const repository = new AcceptRepository(database.dataSource);
      return new SendService(
        config,
        database.dataSource,
        box,
        repository,
        new SenderRules(repository),
      );
    });
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it('stores one message when two replicas are asked for the same key at once', async () => {
    const ask = (replica: SendService, to: string, key: string) =>
      replica.sendSystem(context, {
        to,
        template: { slug: 'bird_otp_verification', language: 'en', parameters: { code: '918273' } },
        dedupe_key: key,
      });
    for (let n = 0; n < 10; n++) {
      const to = `+3161234${String(5000 + n)}`;
      const [first, second] = await Promise.all(replicas.map((r) => ask(r, to, `key_${n}`)));
      expect(second.id).toBe(first.id);
    }
    const rows = await database.dataSource.query(
      `SELECT count(*)::int AS n, count(DISTINCT system_send_key)::int AS keys
       FROM sms_whatsapp.sms_messages WHERE workspace_id = $1`,
      [context.workspaceId],
    );
    expect(rows[0]).toEqual({ n: 10, keys: 10 });
    const jobs = await database.dataSource.query(
      'SELECT count(*)::int AS n FROM sms_whatsapp.jobs',
    );
    expect(jobs[0].n).toBe(10);
  });
});
