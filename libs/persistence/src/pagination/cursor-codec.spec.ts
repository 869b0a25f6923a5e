import { createHmac } from 'node:crypto';
import { AppError } from '@switchboard/platform';
import { CursorCodec } from './cursor-codec';
import type { CursorBinding } from './cursor-codec';

describe(CursorCodec.name, () => {
  const binding: CursorBinding = {
    sort: 'created_at',
    order: 'desc',
    filters: { workspace_id: 'ws_1', name: 'bot' },
  };
  const position = { value: '2024-05-01T10:20:30.123456Z', id: 'app_01' };
  let now: number;
  const codec = new CursorCodec('test-secret-0123456789', 60_000, () => now);

  beforeEach(() => {
    now = 1_700_000_000_000;
  });

  function rejection(action: () => unknown): AppError {
    try {
      action();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('E01012');
      expect((err as AppError).status).toBe(422);
      return err as AppError;
    }
    throw new Error('expected the cursor to be rejected');
  }

  /** A token built the way the codec builds them, so only the payload checks can refuse it. */
  function signed(payload: string): string {
    const body = Buffer.from(payload);
    const mac = createHmac('sha256', 'test-secret-0123456789')
      .update('cursor\0')
      .update(body)
      .digest();
    return Buffer.concat([mac, body]).toString('base64url');
  }

  it('round-trips a position as an opaque base64url token', () => {
    const token = codec.encode(binding, position);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode(token, binding)).toEqual(position);
  });

  it('round-trips a NULL sort value and the end-of-list position', () => {
    expect(codec.decode(codec.encode(binding, { value: null, id: 'x' }), binding)).toEqual({
      value: null,
      id: 'x',
    });
    expect(codec.decode(codec.encode(binding, null), binding)).toBeNull();
  });

  it('binds to filters whatever their key order, ignoring undefined members', () => {
    const token = codec.encode(binding, position);
    const reordered = {
      sort: 'created_at',
      order: 'desc' as const,
      filters: { name: 'bot', workspace_id: 'ws_1', status: undefined },
    };
    expect(codec.decode(token, reordered)).toEqual(position);
  });

  it('rejects a cursor with any byte changed (tampered)', () => {
    const token = codec.encode(binding, position);
    const raw = Buffer.from(token, 'base64url');
    for (const index of [0, 31, 32, raw.length - 1]) {
      const tampered = Buffer.from(raw);
      tampered[index] ^= 0x01;
      expect(
        rejection(() => codec.decode(tampered.toString('base64url'), binding)).message,
      ).toMatch(/malformed/);
    }
  });

  it('rejects a cursor signed with another secret', () => {
    const other = new CursorCodec('another-secret-9876543210', 60_000, () => now);
    rejection(() => codec.decode(other.encode(binding, position), binding));
  });

  it('rejects a cursor once its time to live has passed', () => {
    const token = codec.encode(binding, position);
    now += 60_000;
    expect(codec.decode(token, binding)).toEqual(position);
    now += 1;
    expect(rejection(() => codec.decode(token, binding)).message).toMatch(/expired/);
  });

  it('rejects a cursor made for another sort or order', () => {
    const token = codec.encode(binding, position);
    expect(rejection(() => codec.decode(token, { ...binding, sort: 'name' })).message).toMatch(
      /sort or order/,
    );
    expect(rejection(() => codec.decode(token, { ...binding, order: 'asc' })).message).toMatch(
      /sort or order/,
    );
  });

  it('rejects a cursor made for other filters', () => {
    const token = codec.encode(binding, position);
    const otherWorkspace = { ...binding, filters: { workspace_id: 'ws_2', name: 'bot' } };
    const noNameFilter = { ...binding, filters: { workspace_id: 'ws_1' } };
    expect(rejection(() => codec.decode(token, otherWorkspace)).message).toMatch(/filters/);
    expect(rejection(() => codec.decode(token, noNameFilter)).message).toMatch(/filters/);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$%^'],
    ['padded base64', `${'A'.repeat(60)}==`],
    ['too short for a signature', 'AAAA'],
    ['random bytes', Buffer.alloc(80, 7).toString('base64url')],
    ['far too long', 'A'.repeat(5000)],
  ])('rejects garbage: %s', (_name, token) => {
    rejection(() => codec.decode(token, binding));
  });

  it('rejects a correctly signed payload that is not a cursor', () => {
    for (const payload of [
      'not json',
      '{"v":1}',
      '[1,2]',
      '{"v":1,"s":"created_at","o":"sideways","f":"x","e":1,"k":null}',
    ]) {
      expect(rejection(() => codec.decode(signed(payload), binding)).message).toMatch(/malformed/);
    }
  });

  it('rejects a cursor of another payload version', () => {
    const payload = JSON.stringify({
      v: 2,
      s: 'created_at',
      o: 'desc',
      f: 'x',
      e: now + 1000,
      k: null,
    });
    expect(rejection(() => codec.decode(signed(payload), binding)).message).toMatch(/version/);
  });

  it('refuses to be built without a secret or a time to live', () => {
    expect(() => new CursorCodec('', 1000)).toThrow('secret');
    expect(() => new CursorCodec('s', 0)).toThrow('ttlMs');
  });
});
