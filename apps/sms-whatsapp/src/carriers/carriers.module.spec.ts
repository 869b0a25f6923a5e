import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { startTestSmsc } from '@switchboard/testing';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import { CarriersModule } from './carriers.module';
import { SMS_CARRIERS } from './sms-carrier';
import type { SmsCarriers } from './sms-carrier';
import { parseSmppUrl } from './smpp-url';

describe(CarriersModule.name, () => {
  it('binds the carriers of SMPP_URL while the module lives, and unbinds on shutdown', async () => {
    const smsc = await startTestSmsc();
    const config = { SMPP_URL: parseSmppUrl(smsc.url) };
    @Global()
    @Module({
      providers: [{ provide: SMS_WHATSAPP_CONFIG, useValue: config }],
      exports: [SMS_WHATSAPP_CONFIG],
    })
    class ConfigModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule, CarriersModule],
    }).compile();
    moduleRef.enableShutdownHooks();
    await moduleRef.init();
    const carriers = moduleRef.get<SmsCarriers>(SMS_CARRIERS);
    expect(carriers.configured).toBe(true);
    await smsc.waitFor(() => smsc.bound() === 1);
    await moduleRef.close();
    await smsc.waitFor(() => smsc.bound() === 0);
    expect(carriers.binds()).toEqual([
      { carrier: `127.0.0.1:${smsc.port}`, bound: false, inFlight: 0, window: 10 },
    ]);
    await smsc.stop();
  });

  it('is not configured when SMPP_URL is unset', async () => {
    @Global()
    @Module({
      providers: [{ provide: SMS_WHATSAPP_CONFIG, useValue: {} }],
      exports: [SMS_WHATSAPP_CONFIG],
    })
    class ConfigModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [ConfigModule, CarriersModule],
    }).compile();
    await moduleRef.init();
    expect(moduleRef.get<SmsCarriers>(SMS_CARRIERS).configured).toBe(false);
    await moduleRef.close();
  });
});
