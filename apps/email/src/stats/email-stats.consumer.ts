import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { poolRunner } from '@switchboard/persistence';
import { eventBusFor } from '@switchboard/platform';
import type { OutboxEvent } from '@switchboard/platform';
import { DataSource } from 'typeorm';
import { EMAIL_CONFIG } from '../config/email.config';
import type { EmailConfig } from '../config/email.config';
import { mailClientOf } from '../tracking/mail-clients';
import { EMAIL_STATS_EVENT_TYPES, foldEmailEvents } from './email-stats-fold';
import type { FoldableEmailEvent } from './email-stats-fold';

/** The durable consumer's name on the JetStream bus. */
const CONSUMER = 'email-stats';
const COUNTED: ReadonlySet<string> = new Set(EMAIL_STATS_EVENT_TYPES);

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** The bus events the fold takes, as it takes them: the counted types that name their message. */
export function foldableEmailEvents(events: readonly OutboxEvent[]): FoldableEmailEvent[] {
  return events.flatMap((event) => {
    const data = (event.data ?? {}) as Record<string, unknown>;
    const messageId = text(data.email_id);
    if (!COUNTED.has(event.type) || messageId === null) return [];
    return [
      {
        event_id: event.id,
        message_id: messageId,
        recipient_id: text(data.recipient_id),
        type: event.type,
        occurred_at: event.timestamp,
        bounce_type: text(data.bounce_type),
        bounce_code: text(data.bounce_code),
        feedback_type: text(data.feedback_type),
        prefetched: data.is_prefetched === true,
        user_agent: text(data.user_agent),
        client: ENGAGEMENT.has(event.type) ? clientOf(text(data.user_agent)) : null,
      },
    ];
  });
}

const ENGAGEMENT: ReadonlySet<string> = new Set(['email.opened', 'email.clicked']);
/** Openers' user agents repeat (a few clients and proxies make most opens): each classified once. */
const clients = new Map<string, FoldableEmailEvent['client']>();
const CLIENTS_KEPT = 1000;
/**
 * Longer agents are left to the fold's SQL: one of the rules backtracks in V8 (33 ms for a
 * crafted 16 KB agent, sent to a public pixel), not in PostgreSQL's matcher.
 */
const CLASSIFIED_HERE = 512;

function clientOf(agent: string | null): FoldableEmailEvent['client'] {
  if (agent && agent.length > CLASSIFIED_HERE) return null;
  const key = agent ?? '';
  let client = clients.get(key);
  if (client) return client;
  const { email_client, os, device_type } = mailClientOf(agent);
  client = [email_client, os, device_type];
  if (clients.size >= CLIENTS_KEPT) clients.clear();
  clients.set(key, client);
  return client;
}

/**
 * Keeps the email stats rollups following the service's own events off the bus (ADR 18): each
 * batch is folded in one statement before it is acknowledged; a batch that fails is delivered
 * again, and what it had folded already is not counted twice.
 */
@Injectable()
export class EmailStatsRollupsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EmailStatsRollups');
  private unsubscribe?: () => void;

  constructor(
    @Inject(EMAIL_CONFIG) private readonly config: EmailConfig,
    @InjectDataSource('email') private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    const runner = poolRunner(this.dataSource);
    this.unsubscribe = eventBusFor(this.config).subscribe(
      'email.',
      async (events) => {
        const folded = await foldEmailEvents(runner, foldableEmailEvents(events));
        this.logger.debug(`${events.length} email event(s), ${folded} folded into the rollups`);
      },
      CONSUMER,
    );
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
