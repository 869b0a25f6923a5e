import type { SealedBox } from '@switchboard/platform';
import { ACTIVE_KEY_TTL_MS, ActiveKeyCache } from './active-key-cache';
import { ClientKeys } from './client-keys';
import type { ActiveKeyRow, ClientKeysRepository } from './client-keys.repository';

const KEY_ID = 'rak_0123456789abcdefghijklmnop';
const row = (connectionCounting: boolean): ActiveKeyRow => ({
  id: KEY_ID,
  app_id: 'rap_1',
  workspace_id: 'ws_1',
  secret_sealed: 'sealed',
  connection_counting: connectionCounting,
});

type Read = ((found: ActiveKeyRow | undefined) => void) & { fail: (err: Error) => void };

/** Reads the test answers (or fails) by hand, counting how many were made. */
function manualRepository() {
  const reads: Read[] = [];
  const repository = {
    findActive: () =>
      new Promise<ActiveKeyRow | undefined>((answer, fail) =>
        reads.push(Object.assign(answer, { fail })),
      ),
  } as unknown as ClientKeysRepository;
  return { repository, reads };
}

const failLast = (reads: Read[]) => reads[reads.length - 1].fail(new Error('connection refused'));

const settle = () => new Promise((done) => setImmediate(done));

/** The next ask reads the key (the `count`th read of the test), finds it gone and answers none. */
async function expectGoneOnNextRead(keys: ClientKeys, reads: Read[], count: number) {
  const next = keys.active(KEY_ID);
  expect(reads).toHaveLength(count);
  reads[count - 1](undefined);
  expect(await next).toBeUndefined();
}

describe(ClientKeys.name, () => {
  let now = 1_000;
  const box = { open: (sealed: string) => `opened:${sealed}` } as unknown as SealedBox;

  /** Keys over a repository the test answers, the key read once and now due for a refresh. */
  async function keyDueForRefresh() {
    const { repository, reads } = manualRepository();
    const cache = new ActiveKeyCache(() => now);
    const keys = new ClientKeys(repository, box, cache);
    const first = keys.active(KEY_ID);
    reads[0](row(false));
    await first;
    now += ACTIVE_KEY_TTL_MS / 2;
    return { keys, cache, reads };
  }

  it('answers a key in the second half of its life at once and reads it again in the background, once', async () => {
    const { keys, reads } = await keyDueForRefresh();
    const during = await Promise.all([keys.active(KEY_ID), keys.active(KEY_ID)]);
    expect(during.map((key) => key?.connectionCounting)).toEqual([false, false]);
    expect(reads).toHaveLength(2);
    reads[1](row(true));
    await settle();
    // The read renewed the key: not due again until half a time to live after it.
    now += ACTIVE_KEY_TTL_MS / 2 - 1;
    expect(await keys.active(KEY_ID)).toMatchObject({ connectionCounting: true });
    expect(reads).toHaveLength(2);
  });

  it('forgets a key at once when the background read finds it gone', async () => {
    const { keys, reads } = await keyDueForRefresh();
    expect(await keys.active(KEY_ID)).toBeDefined();
    reads[1](undefined);
    await settle();
    await expectGoneOnNextRead(keys, reads, 3);
  });

  it('does not bring back a key revoked while its background read was under way (the read is made again)', async () => {
    const { keys, cache, reads } = await keyDueForRefresh();
    await keys.active(KEY_ID);
    cache.evictKey(KEY_ID); // the revocation, while the background read still runs
    reads[1](row(false)); // that read saw the row before the revocation
    await settle();
    expect(reads).toHaveLength(3);
    reads[2](undefined);
    await settle();
    await expectGoneOnNextRead(keys, reads, 4);
  });

  it('keeps answering with a key whose background read failed, without reading again, until it expires', async () => {
    const { keys, reads } = await keyDueForRefresh();
    await keys.active(KEY_ID);
    failLast(reads);
    await settle();
    now += ACTIVE_KEY_TTL_MS / 2 - 1;
    expect(await keys.active(KEY_ID)).toBeDefined();
    expect(reads).toHaveLength(2);
    now += 1;
    const next = keys.active(KEY_ID);
    expect(reads).toHaveLength(3);
    reads[2](row(false));
    expect(await next).toBeDefined();
  });
});
