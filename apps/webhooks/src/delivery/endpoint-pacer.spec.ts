import { EndpointPacer } from './endpoint-pacer';
import type { PaceSlot } from './endpoint-pacer';
import { paceFeedbackOf } from './delivery.runner';

const settings = { initial: 2, max: 16, maxPauseMs: 60_000, maxQueueWaitMs: 15_000 };

function pacerAt(start = 1_000_000) {
  const clock = { now: start };
  return { pacer: new EndpointPacer(settings, () => clock.now), clock };
}

/** Runs `rounds` full windows of answers of `durationMs`, one window after the other. */
async function answerRounds(pacer: EndpointPacer, rounds: number, durationMs: number) {
  for (let round = 0; round < rounds; round++) {
    const slots = await Promise.all(
      Array.from({ length: pacer.limitOf('e') }, () => pacer.acquire('e')),
    );
    for (const slot of slots) if (!slot.paused) slot.release({ kind: 'answered', durationMs });
  }
}

/** The slots of a new endpoint's whole initial window, taken. */
async function fullWindow(pacer: EndpointPacer) {
  const slots = await Promise.all(
    Array.from({ length: settings.initial }, () => pacer.acquire('e')),
  );
  return slots as Array<Extract<PaceSlot, { paused: false }>>;
}

describe(EndpointPacer.name, () => {
  it('lets a new endpoint have its initial window in flight and queues the rest in order', async () => {
    const { pacer } = pacerAt();
    const first = await pacer.acquire('e');
    const second = await pacer.acquire('e');
    const order: number[] = [];
    const third = pacer.acquire('e').then((slot) => (order.push(3), slot));
    const fourth = pacer.acquire('e').then((slot) => (order.push(4), slot));
    await Promise.resolve();
    expect(order).toEqual([]);
    if (first.paused || second.paused) throw new Error('not paused');
    first.release({ kind: 'answered', durationMs: 5 });
    second.release({ kind: 'answered', durationMs: 5 });
    await Promise.all([third, fourth]);
    expect(order).toEqual([3, 4]);
  });

  it('doubles the window per round trip while answers stay fast, up to the maximum', async () => {
    const { pacer } = pacerAt();
    await answerRounds(pacer, 1, 5);
    expect(pacer.limitOf('e')).toBe(4);
    await answerRounds(pacer, 1, 5);
    expect(pacer.limitOf('e')).toBe(8);
    await answerRounds(pacer, 3, 5);
    expect(pacer.limitOf('e')).toBe(16);
  });

  it('does not grow while answers are much slower than the best seen (the receiver queues)', async () => {
    const { pacer } = pacerAt();
    await answerRounds(pacer, 1, 20);
    expect(pacer.limitOf('e')).toBe(4);
    await answerRounds(pacer, 3, 400);
    expect(pacer.limitOf('e')).toBe(4);
  });

  it('halves once for the attempts that fail together, then grows by one per round trip', async () => {
    const { pacer, clock } = pacerAt();
    await answerRounds(pacer, 3, 5);
    expect(pacer.limitOf('e')).toBe(16);
    const slots = (await Promise.all(Array.from({ length: 4 }, () => pacer.acquire('e')))) as Array<
      Extract<PaceSlot, { paused: false }>
    >;
    for (const slot of slots) slot.release({ kind: 'overloaded' });
    expect(pacer.limitOf('e')).toBe(8);
    clock.now += 1000;
    await answerRounds(pacer, 1, 5);
    expect(pacer.limitOf('e')).toBe(9);
  });

  it('hands waiting and new attempts back with the time a Retry-After names, capped', async () => {
    const { pacer, clock } = pacerAt();
    const first = await pacer.acquire('e');
    const second = await pacer.acquire('e');
    const waiting = pacer.acquire('e');
    if (first.paused || second.paused) throw new Error('not paused');
    first.release({ kind: 'overloaded', pauseMs: 30_000 });
    const pause = { paused: true, until: clock.now + 30_000, reason: 'retry_after' };
    expect(await waiting).toEqual(pause);
    expect(await pacer.acquire('e')).toEqual(pause);
    expect(await pacer.acquire('other')).toMatchObject({ paused: false });
    second.release({ kind: 'answered', durationMs: 5 });
    clock.now += 30_001;
    expect(await pacer.acquire('e')).toMatchObject({ paused: false });

    const capped = pacerAt();
    const slot = await capped.pacer.acquire('e');
    if (slot.paused) throw new Error('not paused');
    slot.release({ kind: 'overloaded', pauseMs: 3_600_000 });
    expect(await capped.pacer.acquire('e')).toEqual({
      paused: true,
      until: capped.clock.now + 60_000,
      reason: 'retry_after',
    });
  });

  it("sends away, newest first, what a slow receiver's queue cannot take within maxQueueWaitMs", async () => {
    const { pacer, clock } = pacerAt();
    const inFlight = await fullWindow(pacer);
    const queued = Array.from({ length: 10 }, () => pacer.acquire('e'));
    // Both attempts time out after 15 s: the window halves to 1, and one attempt takes 15 s.
    clock.now += 15_000;
    for (const slot of inFlight) slot.release({ kind: 'overloaded' });
    expect(pacer.limitOf('e')).toBe(1);
    // The first time-out left room for one waiting delivery at one per 15 s: the oldest keeps
    // its place (and starts at the second release), the nine newest come back later.
    const [oldest, ...newer] = await Promise.all(queued);
    expect(oldest).toMatchObject({ paused: false });
    for (const slot of newer) {
      expect(slot).toMatchObject({ paused: true, reason: 'backlog' });
      if (slot.paused) expect(slot.until).toBeGreaterThan(clock.now);
    }
    const next = pacer.acquire('e');
    expect(await pacer.acquire('e')).toMatchObject({ paused: true, reason: 'backlog' });
    expect(await pacer.acquire('other')).toMatchObject({ paused: false });
    if (!oldest.paused) oldest.release({ kind: 'overloaded' });
    expect(await next).toMatchObject({ paused: false });
  });

  it("keeps a fast receiver's whole queue, however long", async () => {
    const { pacer, clock } = pacerAt();
    const inFlight = await fullWindow(pacer);
    const queued = Array.from({ length: 1_000 }, () => pacer.acquire('e'));
    clock.now += 5;
    for (const slot of inFlight) slot.release({ kind: 'answered', durationMs: 5 });
    let started = 0;
    for (const waiting of queued) {
      const slot = await waiting;
      expect(slot.paused).toBe(false);
      started += 1;
      clock.now += 1;
      if (!slot.paused) slot.release({ kind: 'answered', durationMs: 5 });
    }
    expect(started).toBe(1_000);
  });

  it('forgets an endpoint that went idle at its initial window', async () => {
    const { pacer } = pacerAt();
    const slot = await pacer.acquire('e');
    if (slot.paused) throw new Error('not paused');
    slot.release({ kind: 'neutral' });
    expect(pacer.size).toBe(0);
  });
});

describe(paceFeedbackOf.name, () => {
  it('reads 2xx as an answer, 429/503 with Retry-After as a pause, refusals by our rules as neutral', () => {
    expect(paceFeedbackOf({ ok: true, statusCode: 200, durationMs: 7 })).toEqual({
      kind: 'answered',
      durationMs: 7,
    });
    expect(paceFeedbackOf({ ok: false, statusCode: 429, durationMs: 1, retryAfter: '5' })).toEqual({
      kind: 'overloaded',
      pauseMs: 5000,
    });
    expect(paceFeedbackOf({ ok: false, statusCode: 500, durationMs: 1 })).toEqual({
      kind: 'overloaded',
    });
    expect(paceFeedbackOf({ ok: false, statusCode: 400, durationMs: 1 })).toEqual({
      kind: 'neutral',
    });
    expect(
      paceFeedbackOf({ ok: false, statusCode: null, durationMs: 1, failure: 'timeout' }),
    ).toEqual({ kind: 'overloaded' });
    expect(
      paceFeedbackOf({ ok: false, statusCode: null, durationMs: 1, failure: 'policy' }),
    ).toEqual({ kind: 'neutral' });
  });
});
