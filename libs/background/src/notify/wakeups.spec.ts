import { startTestPostgres } from '@switchboard/testing';
import { Client, Pool } from 'pg';
import { wakeupsOf } from './wakeups';

describe('Wakeups', () => {
  let postgres: { url: string; stop(): Promise<void> };
  let pool: Pool;
  let listener: Client;
  const received: string[] = [];

  beforeAll(async () => {
    postgres = await startTestPostgres();
    pool = new Pool({ connectionString: postgres.url, max: 4 });
    // An idle client told by the server that its connection ends (57P01, at shutdown) surfaces
    // as a pool error; without a listener that is an unhandled 'error' event failing the suite.
    pool.on('error', () => undefined);
    listener = new Client({ connectionString: postgres.url });
    listener.on('error', () => undefined); // the same notice, on the listening connection
    await listener.connect();
    listener.on('notification', (message) => received.push(message.payload ?? ''));
    await listener.query('LISTEN wake_test');
  });

  afterAll(async () => {
    await listener?.end();
    await pool?.end();
    await postgres?.stop();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('sends a NOTIFY for a wake, outside any transaction of the caller', async () => {
    received.length = 0;
    wakeupsOf(pool).wake('wake_test', 'email.process');
    await settle();
    expect(received).toEqual(['email.process']);
  });

  it('coalesces a burst of wakes into a few NOTIFYs, the last one sent after the last wake', async () => {
    received.length = 0;
    const wakeups = wakeupsOf(pool);
    for (let i = 0; i < 200; i++) wakeups.wake('wake_test', 'burst');
    await settle();
    // One on the wire, then one more for every wake that came while it was: two, not 200.
    expect(received).toEqual(['burst', 'burst']);
    expect(wakeupsOf(pool)).toBe(wakeups);
  });

  it('keeps separate payloads apart and never throws once the pool is gone', async () => {
    received.length = 0;
    wakeupsOf(pool).wake('wake_test', 'a');
    wakeupsOf(pool).wake('wake_test', 'b');
    await settle();
    expect([...received].sort()).toEqual(['a', 'b']);
    const closed = new Pool({ connectionString: postgres.url });
    await closed.end();
    expect(() => wakeupsOf(closed).wake('wake_test', 'c')).not.toThrow();
    await settle();
    expect(received).not.toContain('c');
  });
});
