import { ACTIVE_KEY_TTL_MS, ActiveKeyCache } from './active-key-cache';
import type { ActiveKey } from './active-key-cache';

const key = (keyId: string, appId = 'rap_1'): ActiveKey => ({
  keyId,
  appId,
  workspaceId: 'ws_1',
  connectionCounting: false,
  secret: 's',
});

describe(ActiveKeyCache.name, () => {
  let now = 0;
  const cache = () => new ActiveKeyCache(() => now);
  beforeEach(() => (now = 1_000));

  it('answers a filled key until its time to live has passed', () => {
    const keys = cache();
    keys.fill(key('rak_a'), keys.generation);
    now += ACTIVE_KEY_TTL_MS - 1;
    expect(keys.get('rak_a')?.keyId).toBe('rak_a');
    now += 1;
    expect(keys.get('rak_a')).toBeUndefined();
  });

  it('marks a key due for a read in the background once half its time to live has passed, until it is held or expires', () => {
    const keys = cache();
    expect(keys.due('rak_a')).toBe(false);
    keys.fill(key('rak_a'), keys.generation);
    now += ACTIVE_KEY_TTL_MS / 2 - 1;
    expect(keys.due('rak_a')).toBe(false);
    now += 1;
    expect(keys.due('rak_a')).toBe(true);
    keys.fill(key('rak_a'), keys.generation);
    expect(keys.due('rak_a')).toBe(false);
    now += ACTIVE_KEY_TTL_MS - 1;
    expect(keys.get('rak_a')).toBeDefined();
    keys.holdRefresh('rak_a');
    expect(keys.due('rak_a')).toBe(false);
    now += 1;
    expect(keys.due('rak_a')).toBe(false);
  });

  it('forgets an evicted key, and every key of an evicted app', () => {
    const keys = cache();
    for (const k of [key('rak_a'), key('rak_b'), key('rak_c', 'rap_2')])
      keys.fill(k, keys.generation);
    keys.evictKey('rak_a');
    expect(keys.get('rak_a')).toBeUndefined();
    keys.evictApp('rap_1');
    expect(keys.get('rak_b')).toBeUndefined();
    expect(keys.get('rak_c')?.appId).toBe('rap_2');
    keys.clear();
    expect(keys.get('rak_c')).toBeUndefined();
  });

  it('does not keep a read that an eviction overtook (it may have seen the row before the change)', () => {
    const keys = cache();
    const before = keys.generation;
    keys.evictKey('rak_a');
    keys.fill(key('rak_a'), before);
    expect(keys.get('rak_a')).toBeUndefined();
    keys.fill(key('rak_a'), keys.generation);
    expect(keys.get('rak_a')).toBeDefined();
  });
});
