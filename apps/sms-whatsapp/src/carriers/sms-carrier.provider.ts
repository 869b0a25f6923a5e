import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { SMS_CARRIERS } from './sms-carrier';
import { SmppCarriers } from './smpp.carriers';

/** The service's `SmsCarriers`, from `SMPP_URL` (none configured when it is unset). */
export const smsCarriersProvider: Provider = {
  provide: SMS_CARRIERS,
  inject: [SMS_WHATSAPP_CONFIG],
  useFactory: (config: SmsWhatsappConfig) =>
    new SmppCarriers(config.SMPP_URL ?? [], {
      receiptTimeoutSeconds: config.SMS_RECEIPT_TIMEOUT_SECONDS,
    }),
};

/** Binds the carriers once the application is up, and unbinds them on shutdown. */
@Injectable()
export class SmsCarriersLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(SMS_CARRIERS) private readonly carriers: SmppCarriers) {}

  onApplicationBootstrap(): void {
    this.carriers.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.carriers.close();
  }
}
