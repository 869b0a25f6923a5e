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
import { foldWhatsappEvents, WHATSAPP_STATS_EVENT_TYPES } from './whatsapp-stats-fold';

/** The durable consumer's name on the JetStream bus. */
const CONSUMER = 'sms-whatsapp-stats';
const SMS_COUNTED: ReadonlySet<string> = new Set(SMS_STATS_EVENT_TYPES);
const WHATSAPP_COUNTED: ReadonlySet<string> = new Set(WHATSAPP_STATS_EVENT_TYPES);

/**
 * The bus events a fold takes, as it takes them (message, type, time): the counted types
 * whose data names their message in `idField` (`sms_id`, `whatsapp_id`).
 */
export function foldableEvents(
  events: readonly OutboxEvent[],
  counted: ReadonlySet<string>,
  idField: string,
) {
  return events.flatMap((event) => {
    const messageId = (event.data as Record<string, unknown> | null)?.[idField];
    return counted.has(event.type) && typeof messageId === 'string'
      ? [{ message_id: messageId, type: event.type, occurred_at: event.timestamp }]
      : [];
  });
}

/**
 * Keeps the stats rollups following the service's own events off the bus (ADR 18): each batch is
 * folded in one statement before it is acknowledged; a batch that fails is delivered again, and
 * what it had folded already is not counted twice.
 */
@Injectable()
export class StatsRollupsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('StatsRollups');
  private unsubscribes: Array<() => void> = [];

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) private readonly config: SmsWhatsappConfig,
    @InjectDataSource('sms_whatsapp') private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    const runner = poolRunner(this.dataSource);
    const bus = eventBusFor(this.config);
    this.unsubscribes = [
      bus.subscribe(
        'sms.',
        async (events) => {
          const folded = await foldSmsEvents(runner, foldableEvents(events, SMS_COUNTED, 'sms_id'));
          this.logger.debug(`${events.length} SMS event(s), ${folded} folded into the rollups`);
        },
        `${CONSUMER}-sms`,
      ),
      bus.subscribe(
        'whatsapp.',
        async (events) => {
          const batch = foldableEvents(events, WHATSAPP_COUNTED, 'whatsapp_id');
          const folded = await foldWhatsappEvents(runner, batch);
          this.logger.debug(
            `${events.length} WhatsApp event(s), ${folded} folded into the rollups`,
          );
        },
        `${CONSUMER}-whatsapp`,
      ),
    ];
  }

  onApplicationShutdown(): void {
    this.unsubscribes.forEach((unsubscribe) => unsubscribe());
  }
}
