import type { ServiceClient } from '@switchboard/platform';
import { TrackingHitQueue } from './tracking-hits';

describe(TrackingHitQueue.name, () => {
  const hit = (n: number) => ({
    id: `h${n}`,
    token: `t${n}`,
    at: new Date(0).toISOString(),
    ip_address: null,
    user_agent: null,
  });
  const context = () => ({ requestId: 'req_1', caller: { kind: 'anonymous' as const } });

  it('hands the hits over in batches of at most 500, and drains them', async () => {
    const batches: number[] = [];
    const services = {
      send: (_subject: string, payload: { hits: unknown[] }) => {
        batches.push(payload.hits.length);
        return Promise.resolve({ recorded: payload.hits.length });
      },
    } as unknown as ServiceClient;
    const queue = new TrackingHitQueue(services, context);
    for (let n = 0; n < 1_200; n++) expect(queue.add(hit(n))).toBeUndefined();
    await queue.drain();
    expect(batches).toEqual([500, 500, 200]);
  });

  it('offers a batch again while the email service is away', async () => {
    let calls = 0;
    const services = {
      send: () =>
        ++calls < 3 ? Promise.reject(new Error('away')) : Promise.resolve({ recorded: 1 }),
    } as unknown as ServiceClient;
    const queue = new TrackingHitQueue(services, context);
    void queue.add(hit(1));
    await queue.drain();
    expect(calls).toBe(3);
  });
});
