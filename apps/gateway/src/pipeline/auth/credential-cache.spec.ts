import { CommonErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { GatewayConfig } from '../../config/gateway.config';
import type { Caller } from './caller';
import { CredentialCache } from './credential-cache';

const alice: Caller = { kind: 'api_key', id: 'key_alice', role: 'admin', workspaceId: 'ws_1' };

/** A verification the test settles by hand, counting how often it was started. */
function manualVerify() {
  const calls: Array<{ resolve: (caller: Caller) => void; reject: (err: Error) => void }> = [];
  const verify = () =>
    new Promise<Caller>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { verify, calls };
}

/** `remember` answers a hit without a promise; these tests await either. */
const settled = (answer: Caller | Promise<Caller>) => Promise.resolve(answer);

describe(CredentialCache.name, () => {
  const cache = (ttlMs = 30_000) =>
    new CredentialCache({ AUTH_CACHE_TTL_MS: ttlMs } as GatewayConfig);

  it('verifies a secret once for every request that misses while it is being verified, then answers from memory', async () => {
    const credentials = cache();
    const { verify, calls } = manualVerify();
    const waiting = Array.from({ length: 64 }, () =>
      settled(credentials.remember('api:s1', verify)),
    );
    expect(calls).toHaveLength(1);
    calls[0].resolve(alice);
    expect(await Promise.all(waiting)).toEqual(Array(64).fill(alice));
    expect(credentials.remember('api:s1', verify)).toBe(alice);
    expect(calls).toHaveLength(1);
  });

  it('shares a failure with the requests waiting on it but does not keep it: the next request verifies again', async () => {
    const credentials = cache();
    const { verify, calls } = manualVerify();
    const waiting = [
      settled(credentials.remember('api:s2', verify)),
      settled(credentials.remember('api:s2', verify)),
    ];
    calls[0].reject(new Error('unknown key'));
    for (const outcome of await Promise.allSettled(waiting))
      expect(outcome).toMatchObject({ status: 'rejected', reason: { message: 'unknown key' } });
    const retried = credentials.remember('api:s2', verify);
    expect(calls).toHaveLength(2);
    calls[1].resolve(alice);
    await expect(retried).resolves.toBe(alice);
  });

  it('does not keep what a verification under way learnt once the secret was forgotten (a logout)', async () => {
    const credentials = cache();
    const { verify, calls } = manualVerify();
    const before = credentials.remember('session:s3', verify);
    credentials.forget('session:s3');
    calls[0].resolve(alice);
    await expect(before).resolves.toBe(alice);
    const after = credentials.remember('session:s3', verify);
    expect(after).toBeInstanceOf(Promise);
    expect(calls).toHaveLength(2);
    calls[1].reject(new Error('logged out'));
    await expect(after).rejects.toThrow('logged out');
  });

  it('with caching off, still shares a verification under way but keeps nothing', async () => {
    const credentials = cache(0);
    const { verify, calls } = manualVerify();
    const waiting = [
      settled(credentials.remember('api:s4', verify)),
      settled(credentials.remember('api:s4', verify)),
    ];
    calls[0].resolve(alice);
    await Promise.all(waiting);
    expect(calls).toHaveLength(1);
    const again = credentials.remember('api:s4', verify);
    expect(calls).toHaveLength(2);
    calls[1].resolve(alice);
    await again;
  });

  describe('an entry in the second half of its life', () => {
    let now = 1_000_000;
    beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
    afterEach(() => jest.restoreAllMocks());
    const settle = () => new Promise((done) => setImmediate(done));

    /** A cache of 30 s holding `key` for alice, verified just now; `remember` asks for it again. */
    async function verifiedOnce(key: string) {
      const credentials = cache(30_000);
      const { verify, calls } = manualVerify();
      const first = credentials.remember(key, verify);
      calls[0].resolve(alice);
      await first;
      return {
        calls,
        remember: () => credentials.remember(key, verify),
        forget: () => credentials.forget(key),
      };
    }

    it('answers from memory while it is verified again in the background, once, and the new answer is kept for a full time to live', async () => {
      const { calls, remember } = await verifiedOnce('api:s5');
      now += 14_999;
      expect(remember()).toBe(alice);
      expect(calls).toHaveLength(1);
      now += 1;
      expect(remember()).toBe(alice);
      expect(remember()).toBe(alice);
      expect(calls).toHaveLength(2);
      const renamed = { ...alice, role: 'read' as const };
      calls[1].resolve(renamed);
      await settle();
      now += 29_999;
      expect(remember()).toEqual(renamed);
    });

    it('drops the entry at once when the background verification finds the credential gone', async () => {
      const { calls, remember } = await verifiedOnce('api:s6');
      now += 20_000;
      expect(remember()).toBe(alice);
      calls[1].reject(new AppError(CommonErrors.InvalidCredentials));
      await settle();
      const next = remember();
      expect(next).toBeInstanceOf(Promise);
      calls[2].reject(new AppError(CommonErrors.InvalidCredentials));
      await expect(next).rejects.toBeInstanceOf(AppError);
    });

    it('does not keep what a background verification learnt once the secret was forgotten (a logout)', async () => {
      const { calls, remember, forget } = await verifiedOnce('session:s8');
      now += 20_000;
      expect(remember()).toBe(alice);
      forget();
      calls[1].resolve(alice);
      await settle();
      expect(remember()).toBeInstanceOf(Promise);
      expect(calls).toHaveLength(3);
    });

    it('keeps answering until it expires when the background verification fails for another reason (the database down)', async () => {
      const { calls, remember } = await verifiedOnce('api:s7');
      now += 20_000;
      void remember();
      calls[1].reject(new Error('connection refused'));
      await settle();
      now += 9_999;
      expect(remember()).toBe(alice);
      // Not verified again in the background while the database fails: the entry just expires.
      expect(calls).toHaveLength(2);
      now += 1;
      expect(remember()).toBeInstanceOf(Promise);
      expect(calls).toHaveLength(3);
    });
  });
});
