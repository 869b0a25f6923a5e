import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { pgPoolOf } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import { OutboxRelay } from '@switchboard/background';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';

/** As the email relay: a batch per 50 ms of wake-ups under load, a webhook 50 ms later. */
const RELAY_GATHER_MS = 50;

/**
 * Publishes the service's committed events (`sms.*`, `sms_suppression.created`, `voice_call.*`)
 * from its outbox onto the event bus: the process's in the embedded default, JetStream in
 * distributed mode.
 */
@Injectable()
export class SmsWhatsappEventsRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: OutboxRelay;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') dataSource: DataSource,
  ) {
    this.relay = new OutboxRelay(pgPoolOf(dataSource), 'sms_whatsapp', eventBusFor(config), {
      gatherMs: RELAY_GATHER_MS,
    });
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
