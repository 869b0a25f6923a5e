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

/** Reads the test answers by hand, counting how many were made. */
function manualRepository() {
  const reads: Array<(found: ActiveKeyRow | undefined) => void> = [];
  const repository = {
    findActive: () => new Promise<ActiveKeyRow | undefined>((answer) => reads.push(answer)),
  } as unknown as ClientKeysRepository;
  return { repository, reads };
}

const settle = () => new Promise((done) => setImmediate(done));

describe(ClientKeys.name, () => {
  let now = 1_000;
  const box = { open: (sealed: string) => `opened:${sealed}` } as unknown as SealedBox;
  const cache = () => new ActiveKeyCache(() => now);

  it('answers a key in the second half of its life at once and reads it again in the background, once', async () => {
    const { repository, reads } = manualRepository();
    const keys = new ClientKeys(repository, box, cache());
    const first = keys.active(KEY_ID);
    reads[0](row(false));
    expect(await first).toMatchObject({ appId: 'rap_1', connectionCounting: false });
    now += ACTIVE_KEY_TTL_MS / 2;
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
    const { repository, reads } = manualRepository();
    const keys = new ClientKeys(repository, box, cache());
    const first = keys.active(KEY_ID);
    reads[0](row(false));
    await first;
    now += ACTIVE_KEY_TTL_MS / 2;
    expect(await keys.active(KEY_ID)).toBeDefined();
    reads[1](undefined);
    await settle();
    const next = keys.active(KEY_ID);
    expect(reads).toHaveLength(3);
    reads[2](undefined);
    expect(await next).toBeUndefined();
  });
});
