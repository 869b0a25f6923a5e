import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startNatsServer } from '@switchboard/testing';
import type { RunningNats } from '@switchboard/testing';
import { eventBusFor } from './event-bus';
import { processEventBus } from './in-process-event-bus';
import { EVENTS_STREAM, JetStreamEventBus } from './jetstream-event-bus';
import type { OutboxEvent } from './outbox-event';

const event = (id: string, type = 'email.delivered'): OutboxEvent => ({
  id,
  type,
  workspaceId: 'ws_1',
  timestamp: '2026-11-23T12:00:00.000Z',
  data: { id },
});

const eventually = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe(JetStreamEventBus.name, () => {
  let nats: RunningNats;
  const buses: JetStreamEventBus[] = [];
  const bus = () => {
    const created = new JetStreamEventBus(nats.url, { logger: { warn: () => undefined } });
    buses.push(created);
    return created;
  };

  beforeAll(async () => {
    nats = await startNatsServer();
  });

  afterAll(async () => {
    await Promise.all(buses.map((created) => created.close()));
    await nats?.stop();
  });

  it('hands a durable subscriber the events of its prefix once, in order, and drops republished ids', async () => {
    const publisher = bus();
    const seen: string[] = [];
    const unsubscribe = bus().subscribe(
      'email.',
      (events) => void seen.push(...events.map((e) => e.id)),
      'prefix-test',
    );
    await publisher.publish([
      event('a1'),
      event('a2', 'domain.verified'),
      event('a3', 'email.bounced'),
    ]);
    // The relay publishes a batch again when an ack was lost: the stream drops the duplicates.
    await publisher.publish([event('a1'), event('a3', 'email.bounced'), event('a4')]);
    await eventually(() => seen.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual(['a1', 'a3', 'a4']);
    unsubscribe();
  });

  it('keeps the place of a stopped consumer: what was published meanwhile arrives when it subscribes again', async () => {
    const publisher = bus();
    const seen: string[] = [];
    const take = (events: OutboxEvent[]) => void seen.push(...events.map((e) => e.id));
    const first = bus();
    const unsubscribe = first.subscribe('', take, 'restarting');
    await publisher.publish([event('b1', 'sms.sent')]);
    await eventually(() => seen.includes('b1'));
    unsubscribe();
    await first.close();
    await publisher.publish([event('b2', 'sms.sent'), event('b3', 'sms.delivered')]);
    bus().subscribe('', take, 'restarting');
    await eventually(() => seen.includes('b3'));
    expect(seen.filter((id) => id.startsWith('b'))).toEqual(['b1', 'b2', 'b3']);
  });

  it('redelivers a batch its handler rejected', async () => {
    const publisher = bus();
    let calls = 0;
    const taken: string[] = [];
    bus().subscribe(
      'verify.',
      (events) => {
        calls += 1;
        if (calls === 1) throw new Error('not now');
        taken.push(...events.map((e) => e.id));
      },
      'rejecting',
    );
    await publisher.publish([event('c1', 'verify.attempt.sent')]);
    await eventually(() => taken.includes('c1'), 15_000);
    expect(calls).toBeGreaterThanOrEqual(2);
  });

  it('is the in-process bus in the embedded default, and one JetStream bus per NATS URL otherwise', () => {
    expect(eventBusFor({ TRANSPORT: 'in-process', NATS_URL: nats.url })).toBe(processEventBus);
    const distributed = eventBusFor({ TRANSPORT: 'nats', NATS_URL: nats.url });
    expect(distributed).toBeInstanceOf(JetStreamEventBus);
    expect(eventBusFor({ TRANSPORT: 'nats', NATS_URL: nats.url })).toBe(distributed);
  });

  // Last: it deletes the stream, and with it the consumers of the tests above.
  it('offers a batch again while its stream answers nobody for a moment', async () => {
    const publisher = bus();
    await publisher.publish([event('d0')]);
    const nc = await connect({ servers: nats.url });
    const manager = await jetstreamManager(nc);
    const before = await manager.streams.info(EVENTS_STREAM);
    await manager.streams.delete(EVENTS_STREAM);
    const back = new Promise((resolve) => setTimeout(resolve, 250)).then(() =>
      manager.streams.add(before.config),
    );
    await publisher.publish([event('d2')]);
    await back;
    expect((await manager.streams.info(EVENTS_STREAM)).state.messages).toBe(1);
    await nc.close();
  });
});
