import type { MigratedDatabase } from '@switchboard/testing';
import { startMigratedDatabase } from '@switchboard/testing';
import type { DataSource } from 'typeorm';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { smsWhatsappDatabase } from '../../database/sms-whatsapp.database';
import { WhatsAppNumbersRepository } from './whatsapp-numbers.repository';

describe(WhatsAppNumbersRepository.name, () => {
  let database: MigratedDatabase;
  let dataSource: DataSource;
  let numbers: WhatsAppNumbersRepository;

  beforeAll(async () => {
    database = await startMigratedDatabase((url) =>
      smsWhatsappDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 } as SmsWhatsappConfig),
    );
    dataSource = database.dataSource;
    numbers = new WhatsAppNumbersRepository(dataSource);
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_business_accounts (id, workspace_id, waba, name)
       VALUES ('waa_1', 'ws_a', '102', 'Acme'), ('waa_2', 'ws_b', '202', 'Other')`,
    );
    await dataSource.query(
      `INSERT INTO sms_whatsapp.whatsapp_numbers (id, workspace_id, business_account_id,
         phone_number_id, phone_number, channel_id, name, status, created_at)
       VALUES
         ('wan_old', 'ws_a', 'waa_1', '1061', '+31612340001', gen_random_uuid(), 'Old',
          'disconnected', now() - interval '1 day'),
         ('wan_new', 'ws_a', 'waa_1', '1062', '+31612340001', gen_random_uuid(), 'New',
          'connected', now() - interval '2 days'),
         ('wan_b', 'ws_b', 'waa_2', '2061', '+31612340009', gen_random_uuid(), 'B',
          'connected', now())`,
    );
  }, 60_000);

  afterAll(async () => {
    await database?.stop();
  });

  it("finds the number a webhook's phone_number_id names, in whichever workspace", async () => {
    expect(await numbers.findConnectedByPhoneNumberId('2061')).toEqual({
      id: 'wan_b',
      workspaceId: 'ws_b',
      businessAccountId: 'waa_2',
      phoneNumberId: '2061',
      phoneNumber: '+31612340009',
    });
    expect(await numbers.findConnectedByPhoneNumberId('999')).toBeUndefined();
  });

  it("finds a send's sender by wan_ id or phone number, a connected one first, in its workspace only", async () => {
    expect(await numbers.findSender('ws_a', 'wan_old')).toMatchObject({ id: 'wan_old' });
    expect(await numbers.findSender('ws_a', '+31 6 1234 0001')).toMatchObject({
      id: 'wan_new',
      waba: '102',
      phone_number_id: '1062',
    });
    expect(await numbers.findSender('ws_a', 'wan_b')).toBeUndefined();
    expect(await numbers.findSender('ws_a', '+31612340009')).toBeUndefined();
    expect(await numbers.findSender('ws_b', '0031612340009')).toMatchObject({ id: 'wan_b' });
  });
});
