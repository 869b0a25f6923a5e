import { Logger } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import type { ConsumerMessages, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EventHandler, EventPublisher, EventSubscriber, OutboxEvent } from './outbox-event';

/** The stream every service's relay publishes to, one subject per event type. */
export const EVENTS_STREAM = 'SWITCHBOARD_EVENTS';
const SUBJECT_PREFIX = 'events.';
const MS = 1_000_000; // JetStream durations are nanoseconds
const DAY_MS = 86_400_000;

export interface JetStreamEventBusOptions {
  /** How long the stream keeps events (a consumer down longer misses them). Default 7 days. */
  maxAgeMs?: number;
  logger?: { warn(message: string): void };
}

/**
 * The event bus of the distributed topology. `publish` sends each event to `events.<type>` on
 * the stream with `msgID` = the event id, so a batch the relay publishes again is deduplicated
 * by the server, and resolves once every ack is in. `subscribe` reads through a durable pull
 * consumer of that name: it keeps its place while its process is down and starts from the
 * first stored event when created. Messages are handed over in batches (what arrived while the
 * previous batch was handled), acknowledged when the handler resolves and `nak`ed with a
 * growing delay when it rejects.
 */
export class JetStreamEventBus implements EventPublisher, EventSubscriber {
  private connection?: Promise<{ nc: NatsConnection; js: JetStreamClient }>;
  private readonly loops = new Set<{ stop(): Promise<void> }>();
  private readonly logger: { warn(message: string): void };

  constructor(
    private readonly servers: string,
    private readonly options: JetStreamEventBusOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(JetStreamEventBus.name);
  }

  /**
   * Publishes the batch. A stream that has no leader for a moment (just created, updated, or
   * failing over in a cluster) answers "no responders": the batch is offered again a few times
   * within about 1.5 s before the error reaches the relay, which retries it later. The stream
   * drops the ids it already has.
   */
  async publish(events: readonly OutboxEvent[]): Promise<void> {
    const { js } = await this.connected();
    for (let attempt = 1; ; attempt++) {
      try {
        await Promise.all(
          events.map((event) =>
            js.publish(`${SUBJECT_PREFIX}${event.type}`, JSON.stringify(event), {
              msgID: event.id,
            }),
          ),
        );
        return;
      } catch (err) {
        if (attempt >= PUBLISH_ATTEMPTS || !isStreamAway(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
      }
    }
  }

  subscribe(typePrefix: string, handler: EventHandler, consumer?: string): () => void {
    if (!consumer) throw new Error('a JetStream subscription needs a durable consumer name');
    let stopped = false;
    let messages: ConsumerMessages | undefined;
    let chain: Promise<void> = Promise.resolve();
    let buffer: JsMsg[] = [];
    let scheduled = false;
    const flush = async () => {
      scheduled = false;
      const batch = buffer;
      buffer = [];
      if (batch.length === 0 || stopped) return;
      try {
        await handler(batch.map((message) => message.json<OutboxEvent>()));
        for (const message of batch) message.ack();
      } catch (err) {
        this.logger.warn(
          `consumer ${consumer}: ${batch.length} event(s) not taken (${(err as Error).message}); redelivered later`,
        );
        for (const message of batch)
          message.nak(Math.min(30_000, 1000 * 2 ** Math.min(message.info.deliveryCount - 1, 5)));
      }
    };
    const start = async () => {
      const { js, nc } = await this.connected();
      const manager = await jetstreamManager(nc);
      await manager.consumers.add(EVENTS_STREAM, {
        durable_name: consumer,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: filterSubject(typePrefix),
        ack_wait: 30_000 * MS,
        max_ack_pending: 1000,
      });
      const source = await js.consumers.get(EVENTS_STREAM, consumer);
      if (stopped) return;
      messages = await source.consume({
        max_messages: 200,
        callback: (message) => {
          buffer.push(message);
          if (scheduled) return;
          scheduled = true;
          // Messages arriving meanwhile join the batch; batches are handled one after another.
          chain = chain.then(() => new Promise((resolve) => setImmediate(resolve))).then(flush);
        },
      });
    };
    // A consumer that cannot start (NATS or the stream away for a moment) keeps trying: events
    // wait in the stream meanwhile.
    const started = (async () => {
      for (let attempt = 0; !stopped; attempt++) {
        try {
          return await start();
        } catch (err) {
          const delay = Math.min(5_000, 500 * 2 ** attempt);
          this.logger.warn(
            `consumer ${consumer} could not start (${(err as Error).message}); retrying in ${delay} ms`,
          );
          await new Promise((resolve) => setTimeout(resolve, delay));
        }
      }
    })();
    const loop = {
      stop: async () => {
        stopped = true;
        await started;
        await messages?.close();
        await chain;
      },
    };
    this.loops.add(loop);
    return () => {
      this.loops.delete(loop);
      void loop.stop();
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.loops].map((loop) => loop.stop()));
    this.loops.clear();
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await (await connection.catch(() => undefined))?.nc.drain();
  }

  /** One connection, made on first use; the stream is created (or its settings updated) then. */
  private connected(): Promise<{ nc: NatsConnection; js: JetStreamClient }> {
    this.connection ??= (async () => {
      const nc = await connect({
        servers: this.servers.split(',').map((server) => server.trim()),
        maxReconnectAttempts: -1,
      });
      const manager = await jetstreamManager(nc);
      const config = {
        subjects: [`${SUBJECT_PREFIX}>`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: (this.options.maxAgeMs ?? 7 * DAY_MS) * MS,
        duplicate_window: 120_000 * MS,
      };
      let current: Record<string, unknown> | undefined;
      try {
        current = (await manager.streams.info(EVENTS_STREAM)).config;
      } catch {
        await manager.streams.add({ name: EVENTS_STREAM, ...config });
      }
      // Updated only when a setting differs: every process starting would otherwise update it,
      // and a stream being updated answers nobody for a moment.
      if (current && settingsDiffer(current, config))
        await manager.streams.update(EVENTS_STREAM, config);
      return { nc, js: jetstream(nc) };
    })();
    this.connection.catch(() => (this.connection = undefined));
    return this.connection;
  }
}

/** Whether any of `wanted`'s settings has another value in `current`. */
function settingsDiffer(
  current: Record<string, unknown>,
  wanted: Record<string, unknown>,
): boolean {
  return Object.keys(wanted).some(
    (key) => JSON.stringify(current[key]) !== JSON.stringify(wanted[key]),
  );
}

/** Tries of one publish while its stream answers nobody (100, 200, 400, 800 ms apart). */
const PUBLISH_ATTEMPTS = 5;

/** "No responders" (the stream has no leader now), however deep in the error's causes. */
function isStreamAway(err: unknown): boolean {
  for (
    let at = err as { message?: string; cause?: unknown } | undefined, depth = 0;
    at && depth < 4;
    depth++
  ) {
    if (/no responders|jetstream is not enabled/i.test(at.message ?? '')) return true;
    at = at.cause as typeof at;
  }
  return false;
}

/** `email.` -> `events.email.>`; '' -> `events.>`; a full type is its own subject. */
function filterSubject(typePrefix: string): string {
  if (typePrefix === '') return `${SUBJECT_PREFIX}>`;
  return typePrefix.endsWith('.')
    ? `${SUBJECT_PREFIX}${typePrefix}>`
    : `${SUBJECT_PREFIX}${typePrefix}`;
}
