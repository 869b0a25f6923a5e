import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import type { OutboxEvent } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../config/sms-whatsapp.config';
import { foldSmsEvents, SMS_STATS_EVENT_TYPES } from './sms-stats-fold';

/** The durable consumer's name on the JetStream bus. */
const CONSUMER = 'sms-whatsapp-stats';
const COUNTED: ReadonlySet<string> = new Set(SMS_STATS_EVENT_TYPES);

/** A bus event as the fold takes it: its message, type and time; others are left out. */
export function foldableSmsEvents(events: readonly OutboxEvent[]) {
  return events.flatMap((event) => {
    const messageId = (event.data as { sms_id?: unknown } | null)?.sms_id;
    return COUNTED.has(event.type) && typeof messageId === 'string'
      ? [{ message_id: messageId, type: event.type, occurred_at: event.timestamp }]
      : [];
  });
}

/**
 * Keeps the stats rollups following the service's own events off the bus (ADR 20): each batch is
 * folded in one statement before it is acknowledged; a batch that fails is delivered again, and
 * what it had folded already is not counted twice.
 */
@Injectable()
export class StatsRollupsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StatsRollups');
  private unsubscribe?: () => void;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    const runner = poolRunner(this.dataSource);
    this.unsubscribe = eventBusFor(this.config).subscribe(
      'sms.',
      async (events) => {
        const folded = await foldSmsEvents(runner, foldableSmsEvents(events));
        this.logger.debug(`${events.length} SMS event(s), ${folded} folded into the rollups`);
      },
      `${CONSUMER}-sms`,
    );
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
