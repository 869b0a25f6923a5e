import { Module } from '@nestjs/common';
import { SMS_CARRIERS } from './sms-carrier';
import { SmsCarriersLifecycle, smsCarriersProvider } from './sms-carrier.provider';

/**
 * The SMPP binds of `SMPP_URL` as `SMS_CARRIERS`. Import it only into the service's background
 * part: the carriers bind while this module lives, and one bind per carrier is wanted per
 * process that sends (never the request part).
 */
@Module({
  providers: [smsCarriersProvider, SmsCarriersLifecycle],
  exports: [SMS_CARRIERS],
})
export class CarriersModule {}
