import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { followPreferenceLedger, poolRunner } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { SmsSuppressionsService } from '../suppressions';

/** The durable consumer's name on the JetStream bus. */
const CONSUMER = 'sms-whatsapp-preferences';

/**
 * Keeps `sms_whatsapp.preference_states` following the preference ledger's SMS and WhatsApp
 * statements (ADR 14), so a send checks its recipient's preferences with a local read at accept.
 */
@Injectable()
export class SmsWhatsappPreferenceStatesConsumer
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger('SmsWhatsappPreferences');
  private unsubscribe?: () => void;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
    private readonly suppressions: SmsSuppressionsService,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = followPreferenceLedger({
      bus: eventBusFor(this.config),
      consumer: CONSUMER,
      runner: poolRunner(this.dataSource),
      schema: 'sms_whatsapp',
      channels: ['sms', 'whatsapp'],
      logger: this.logger,
      // A grant over a person's STOP ends the STOP's suppression too (ledger and SMS agree).
      afterApply: async (rows) => void (await this.suppressions.followGrants(rows)),
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
