import { poolRunner } from '@switchboard/persistence';
import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../database/sms-whatsapp.database';
import { InboundRepository } from './inbound.repository';

describe(InboundRepository.name, () => {
  let database: MigratedDatabase;
  const repository = new InboundRepository();

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({
        DATABASE_URL: url,
        DATABASE_POOL_SIZE: 2,
        ENCRYPTION_KEY: 'an encryption key for the inbound tests',
      } as SmsWhatsappConfig),
    );
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it('gives the parts of a long message back whole once the last is in, a split emoji joined', async () => {
    const runner = poolRunner(database.dataSource);
    const part = (sequence: number, text: string) =>
      repository.storePart(runner, {
        carrier: 'nl',
        from: '+31655550001',
        to: '+31612340000',
        text,
        receivedAt: new Date(),
        part: { reference: 9, total: 2, sequence },
      });
    // A handset's encoder may cut between the two halves of a surrogate pair.
    expect(await part(2, '\ude42 and more')).toBeUndefined();
    const whole = await part(1, 'Smile \ud83d');
    expect(whole?.map((p) => p.text).join('')).toBe('Smile 🙂 and more');
    const left = await database.dataSource.query(
      'SELECT count(*)::int AS n FROM sms_whatsapp.sms_inbound_parts',
    );
    expect(left[0].n).toBe(0);
  });
});
