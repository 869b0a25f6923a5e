import { InProcessEventBus } from './in-process-event-bus';
import type { OutboxEvent } from './outbox-event';

const event = (id: string, type: string): OutboxEvent => ({
  id,
  type,
  workspaceId: 'ws_1',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { id },
});

describe(InProcessEventBus.name, () => {
  it('hands each subscriber the events of its type prefix, in order, as one batch', async () => {
    const bus = new InProcessEventBus();
    const emails: string[] = [];
    const all: string[] = [];
    bus.subscribe('email.', (batch) => void emails.push(...batch.map((e) => e.id)));
    bus.subscribe('', (batch) => void all.push(...batch.map((e) => e.id)));
    await bus.publish([
      event('1', 'email.sent'),
      event('2', 'domain.verified'),
      event('3', 'email.delivered'),
    ]);
    expect(emails).toEqual(['1', '3']);
    expect(all).toEqual(['1', '2', '3']);
  });

  it('gives every subscriber its own copy of the event', async () => {
    const bus = new InProcessEventBus();
    const seen: unknown[] = [];
    bus.subscribe('email.', ([delivered]) => {
      (delivered.data as { id: string }).id = 'changed';
    });
    bus.subscribe('email.', ([delivered]) => void seen.push(delivered.data));
    const published = event('1', 'email.sent');
    await bus.publish([published]);
    expect(seen).toEqual([{ id: '1' }]);
    expect(published.data).toEqual({ id: '1' });
  });

  it('stops delivering to a subscriber once it unsubscribes', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    const unsubscribe = bus.subscribe('email.', ([delivered]) => void seen.push(delivered.id));
    await bus.publish([event('1', 'email.sent')]);
    unsubscribe();
    await bus.publish([event('2', 'email.sent')]);
    expect(seen).toEqual(['1']);
  });

  it('rejects the publish when a subscriber rejects, so the relay delivers the batch again', async () => {
    const bus = new InProcessEventBus();
    bus.subscribe('email.', () => Promise.reject(new Error('not now')));
    await expect(bus.publish([event('1', 'email.sent')])).rejects.toThrow('not now');
  });

  it('holds publishes until released, so a consumer that subscribes meanwhile gets them', async () => {
    const bus = new InProcessEventBus();
    bus.hold();
    let published = false;
    const publishing = bus.publish([event('1', 'preference.revoked')]).then(() => {
      published = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(published).toBe(false);
    const seen: string[] = [];
    bus.subscribe('preference.', (batch) => void seen.push(...batch.map((e) => e.id)));
    bus.release();
    await publishing;
    expect(seen).toEqual(['1']);
  });

  it('refuses publishes once closed, held ones included, so the relay keeps its events', async () => {
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.subscribe('', (batch) => void seen.push(...batch.map((e) => e.id)));
    bus.hold();
    const held = bus.publish([event('1', 'email.sent')]);
    bus.close();
    await expect(held).rejects.toThrow(/closed/);
    await expect(bus.publish([event('2', 'email.sent')])).rejects.toThrow(/closed/);
    expect(seen).toEqual([]);
  });
});
