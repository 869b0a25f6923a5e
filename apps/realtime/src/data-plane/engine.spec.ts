import { RealtimeEngine, SubscriptionRefused } from './engine';
import type { ClientConnection } from './engine';
import { CloseCodes, LIMITS } from './protocol';
import type { Frame } from './protocol';
import { authFor, signedString } from './signatures';

const KEY = 'rak_test';
const SECRET = 'secret';

/** A connection of app `rap_1` and key `KEY` that ignores what it is given, but for `parts`. */
function connectionOf(engine: RealtimeEngine, parts: Partial<ClientConnection> = {}) {
  const connection: ClientConnection = {
    id: parts.id ?? engine.newConnectionId(),
    appId: 'rap_1',
    keyId: KEY,
    secret: SECRET,
    send: () => undefined,
    close: () => undefined,
    unsentBytes: () => 0,
    drop: () => undefined,
    ...parts,
  };
  return connection;
}

function fakeConnection(engine: RealtimeEngine, appId = 'rap_1', keyId = KEY) {
  const frames: Frame[] = [];
  const closes: number[] = [];
  const connection = connectionOf(engine, {
    appId,
    keyId,
    send: (frame) => frames.push(frame),
    close: (code) => closes.push(code),
    drop: (code) => closes.push(code),
  });
  engine.open(connection);
  return {
    connection,
    frames,
    closes,
    events: (name: string) => frames.filter((f) => f.event === name),
  };
}

const presence = (
  engine: RealtimeEngine,
  c: ClientConnection,
  channel: string,
  memberId: string,
) => {
  const memberData = JSON.stringify({ member_id: memberId });
  engine.subscribe(c.id, {
    channel,
    member_data: memberData,
    auth: authFor(KEY, SECRET, signedString(c.id, { channel, memberData })),
  });
};

describe(RealtimeEngine.name, () => {
  it('greets a connection with its id and the activity time-out', () => {
    const engine = new RealtimeEngine();
    const a = fakeConnection(engine);
    expect(a.frames[0]).toEqual({
      event: 'bird:connection_established',
      data: { connection_id: a.connection.id, activity_timeout: 120 },
    });
    expect(a.connection.id).toMatch(/^\d+\.\d+$/);
  });

  it('is occupied from the first subscriber to the last, and keeps apps apart', () => {
    const engine = new RealtimeEngine();
    const a = fakeConnection(engine);
    const b = fakeConnection(engine);
    const other = fakeConnection(engine, 'rap_2');
    engine.subscribe(a.connection.id, { channel: 'news' });
    engine.subscribe(b.connection.id, { channel: 'news' });
    engine.subscribe(other.connection.id, { channel: 'news' });
    expect(engine.localChannels('rap_1')).toEqual([{ name: 'news', connections: 2, members: [] }]);
    engine.publish('rap_1', ['news'], 'hello', { n: 1 }, b.connection.id);
    expect(a.events('hello')).toHaveLength(1);
    expect(b.events('hello')).toHaveLength(0);
    expect(other.events('hello')).toHaveLength(0);
    engine.unsubscribe(a.connection.id, { channel: 'news' });
    engine.closed(b.connection.id);
    expect(engine.localChannels('rap_1')).toEqual([]);
    expect(engine.localChannels('rap_2')).toEqual([{ name: 'news', connections: 1, members: [] }]);
  });

  it('refuses a private channel without the right signature and a bad name', () => {
    const engine = new RealtimeEngine();
    const a = fakeConnection(engine);
    expect(() =>
      engine.subscribe(a.connection.id, { channel: 'private-x', auth: 'rak_test:00' }),
    ).toThrow(SubscriptionRefused);
    expect(() => engine.subscribe(a.connection.id, { channel: 'no spaces' })).toThrow(
      'letters, digits',
    );
    engine.subscribe(a.connection.id, {
      channel: 'private-x',
      auth: authFor(KEY, SECRET, signedString(a.connection.id, { channel: 'private-x' })),
    });
    expect(engine.isSubscribed(a.connection.id, 'private-x')).toBe(true);
  });

  it('adds a member once across its connections and removes it with the last one', () => {
    const engine = new RealtimeEngine();
    const watcher = fakeConnection(engine);
    const tab1 = fakeConnection(engine);
    const tab2 = fakeConnection(engine);
    presence(engine, watcher.connection, 'presence-room', 'watcher');
    presence(engine, tab1.connection, 'presence-room', 'ada');
    presence(engine, tab2.connection, 'presence-room', 'ada');
    expect(watcher.events('bird_internal:member_added').map((f) => f.data)).toEqual([
      { member_id: 'ada', member_info: undefined },
    ]);
    const [room] = engine.localChannels('rap_1', 'presence-room');
    expect(room.members.sort()).toEqual(['ada', 'watcher']);
    expect(room.connections).toBe(3);
    engine.closed(tab1.connection.id);
    expect(watcher.events('bird_internal:member_removed')).toHaveLength(0);
    engine.closed(tab2.connection.id);
    expect(watcher.events('bird_internal:member_removed').map((f) => f.data)).toEqual([
      { member_id: 'ada' },
    ]);
  });

  it('allows 10 client events a second per connection', () => {
    const engine = new RealtimeEngine();
    const a = fakeConnection(engine);
    const b = fakeConnection(engine);
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      const allowed = Array.from({ length: 12 }, () => engine.clientEventAllowed(a.connection.id));
      expect(allowed).toEqual([...Array<boolean>(10).fill(true), false, false]);
      expect(engine.clientEventAllowed(b.connection.id)).toBe(true);
      now.mockReturnValue(1_700_000_001_000);
      expect(engine.clientEventAllowed(a.connection.id)).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  it("closes a revoked key's connections and a disconnected member's, and nobody else's", () => {
    const engine = new RealtimeEngine();
    const revoked = fakeConnection(engine, 'rap_1', 'rak_old');
    const kept = fakeConnection(engine);
    expect(engine.closeByKey('rak_old', 4001, 'revoked')).toBe(1);
    expect(revoked.closes).toEqual([4001]);
    expect(kept.closes).toEqual([]);
    const memberData = JSON.stringify({ member_id: 'grace' });
    engine.signin(kept.connection.id, {
      member_data: memberData,
      auth: authFor(
        KEY,
        SECRET,
        signedString(kept.connection.id, { signinMemberData: memberData }),
      ),
    });
    expect(engine.disconnectMember('rap_1', 'grace', 4009)).toBe(1);
    expect(kept.closes).toEqual([4009]);
  });

  const signin = (engine: RealtimeEngine, c: ClientConnection, memberId: string) => {
    const memberData = JSON.stringify({ member_id: memberId });
    return engine.signin(c.id, {
      member_data: memberData,
      auth: authFor(KEY, SECRET, signedString(c.id, { signinMemberData: memberData })),
    });
  };

  it("leaves the previous member's channel when a connection signs in as someone else", () => {
    const engine = new RealtimeEngine();
    const client = fakeConnection(engine);
    signin(engine, client.connection, 'alice');
    engine.subscribe(client.connection.id, { channel: '#server-to-user-alice' });
    expect(engine.isSubscribed(client.connection.id, '#server-to-user-alice')).toBe(true);
    signin(engine, client.connection, 'alice');
    expect(engine.isSubscribed(client.connection.id, '#server-to-user-alice')).toBe(true);
    signin(engine, client.connection, 'bob');
    expect(engine.isSubscribed(client.connection.id, '#server-to-user-alice')).toBe(false);
    expect(engine.disconnectMember('rap_1', 'alice', 4009)).toBe(0);
  });

  it('refuses a sign-in whose member_id no member channel could name', () => {
    const engine = new RealtimeEngine();
    const client = fakeConnection(engine);
    const longest = 'm'.repeat(LIMITS.channelNameLength - '#server-to-user-'.length);
    expect(signin(engine, client.connection, longest).id).toBe(longest);
    expect(() => signin(engine, client.connection, `${longest}m`)).toThrow(SubscriptionRefused);
  });
});

/** Two engines wired as the cluster wires processes: each hears the other's presence changes. */
function twoProcesses() {
  const first = new RealtimeEngine();
  const second = new RealtimeEngine();
  for (const [from, to] of [
    [first, second],
    [second, first],
  ])
    from.onPresenceChange((change) =>
      change.kind === 'join'
        ? to.remoteJoined(from.processTag, change)
        : to.remoteLeft(from.processTag, change),
    );
  return { first, second };
}

describe(`${RealtimeEngine.name} across processes`, () => {
  const added = (c: ReturnType<typeof fakeConnection>) =>
    c.events('bird_internal:member_added').map((f) => (f.data as { member_id: string }).member_id);
  const removed = (c: ReturnType<typeof fakeConnection>) =>
    c
      .events('bird_internal:member_removed')
      .map((f) => (f.data as { member_id: string }).member_id);

  it('adds a member once when its connections are on two processes, and removes it with the last', () => {
    const { first, second } = twoProcesses();
    const watcher = fakeConnection(first);
    presence(first, watcher.connection, 'presence-room', 'watcher');
    const tab1 = fakeConnection(first);
    const tab2 = fakeConnection(second);
    presence(first, tab1.connection, 'presence-room', 'ada');
    presence(second, tab2.connection, 'presence-room', 'ada');
    expect(added(watcher)).toEqual(['ada']);
    // The second process lists members it does not hold itself.
    const succeeded = tab2.events('bird_internal:subscription_succeeded')[0];
    expect(succeeded.data).toMatchObject({
      presence: { count: 2, ids: expect.arrayContaining(['ada', 'watcher']) },
    });
    first.closed(tab1.connection.id);
    expect(removed(watcher)).toEqual([]);
    second.closed(tab2.connection.id);
    expect(removed(watcher)).toEqual(['ada']);
  });

  it('tells members on one process about members joining on the other', () => {
    const { first, second } = twoProcesses();
    const watcher = fakeConnection(first);
    presence(first, watcher.connection, 'presence-room', 'watcher');
    const grace = fakeConnection(second);
    presence(second, grace.connection, 'presence-room', 'grace');
    expect(added(watcher)).toEqual(['grace']);
    const late = fakeConnection(second);
    presence(second, late.connection, 'presence-room', 'late');
    expect(added(watcher)).toEqual(['grace', 'late']);
    expect(added(grace)).toEqual(['late']);
  });

  it("removes a gone process's members, and only those held nowhere else", () => {
    const { first, second } = twoProcesses();
    const watcher = fakeConnection(first);
    presence(first, watcher.connection, 'presence-room', 'watcher');
    for (const id of ['both', 'only-second']) {
      presence(second, fakeConnection(second).connection, 'presence-room', id);
      if (id === 'both') presence(first, fakeConnection(first).connection, 'presence-room', id);
    }
    first.replaceRemote(second.processTag, []);
    expect(removed(watcher)).toEqual(['only-second']);
    // A snapshot brings them back, announced once.
    first.replaceRemote(second.processTag, second.localPresence());
    expect(added(watcher)).toEqual(['both', 'only-second', 'only-second']);
  });
});

describe(`${RealtimeEngine.name} broadcasting`, () => {
  /** A group that keeps its rooms as a socket.io server does, and records each room send. */
  function roomGroup() {
    const rooms = new Map<string, Set<string>>();
    const calls: Array<{ addresses: string[]; event: string }> = [];
    const group = {};
    const member = (address: string): NonNullable<ClientConnection['together']> => ({
      group,
      address,
      join: (room) => rooms.set(room, (rooms.get(room) ?? new Set()).add(address)),
      leave: (room) => void rooms.get(room)?.delete(address),
      sendRoom: (room, frame, except) =>
        calls.push({
          addresses: [...(rooms.get(room) ?? [])].filter((a) => a !== except),
          event: frame.event,
        }),
    });
    return { calls, member, rooms };
  }

  it('sends a group one frame per channel for its subscribers and the others one by one, never the excluded', () => {
    const engine = new RealtimeEngine();
    const { calls, member } = roomGroup();
    const direct: string[] = [];
    const grouped = (address: string) => {
      const connection = connectionOf(engine, {
        // Frames for this connection alone (the handshake, its subscription) still come here.
        send: (frame) => direct.push(frame.event),
        together: member(address),
      });
      engine.open(connection);
      engine.subscribe(connection.id, { channel: 'news' });
      return connection;
    };
    const [a, , c] = [grouped('sio-a'), grouped('sio-b'), grouped('sio-c')];
    const plain = fakeConnection(engine);
    engine.subscribe(plain.connection.id, { channel: 'news' });
    engine.publish('rap_1', ['news'], 'headline', { n: 1 }, c.id);
    expect(calls).toEqual([{ addresses: ['sio-a', 'sio-b'], event: 'headline' }]);
    expect(plain.events('headline')).toHaveLength(1);
    expect(direct).not.toContain('headline');
    expect(a.id).not.toBe(c.id);
  });

  it("keeps a group's rooms in step with its subscriptions: unsubscribed and closed connections leave", () => {
    const engine = new RealtimeEngine();
    const { calls, member, rooms } = roomGroup();
    const ids = ['sio-a', 'sio-b', 'sio-c'].map((address) => {
      const connection = connectionOf(engine, { together: member(address) });
      engine.open(connection);
      engine.subscribe(connection.id, { channel: 'news' });
      engine.subscribe(connection.id, { channel: 'sport' });
      return connection.id;
    });
    engine.unsubscribe(ids[0], { channel: 'news' });
    engine.closed(ids[1]);
    engine.publish('rap_1', ['news', 'sport'], 'update', {});
    expect(calls).toEqual([
      { addresses: ['sio-c'], event: 'update' },
      { addresses: ['sio-a', 'sio-c'], event: 'update' },
    ]);
    engine.closed(ids[0]);
    engine.closed(ids[2]);
    expect([...rooms.values()].every((room) => room.size === 0)).toBe(true);
    calls.length = 0;
    engine.publish('rap_1', ['news', 'sport'], 'update', {});
    expect(calls).toEqual([]);
  });

  it('closes a connection over the unsent limit at two checks in a row (4100), not one over it once', () => {
    const engine = new RealtimeEngine();
    const unsent = new Map<string, number>();
    const dropped: Array<[string, number]> = [];
    const connect = () => {
      const frames: Frame[] = [];
      const id = engine.newConnectionId();
      engine.open(
        connectionOf(engine, {
          id,
          send: (frame) => frames.push(frame),
          unsentBytes: () => unsent.get(id) ?? 0,
          drop: (code) => dropped.push([id, code]),
        }),
      );
      engine.subscribe(id, { channel: 'news' });
      return { id, frames };
    };
    const [stalled, bursty, reading] = [connect(), connect(), connect()];
    const over = LIMITS.unsentBytesPerConnection + 1;
    unsent.set(stalled.id, over).set(bursty.id, over);
    expect(engine.closeStalled()).toBe(0);
    unsent.set(bursty.id, 0);
    expect(engine.closeStalled()).toBe(1);
    expect(dropped).toEqual([[stalled.id, CloseCodes.OverCapacity]]);
    unsent.set(bursty.id, over);
    expect(engine.closeStalled()).toBe(0);
    engine.publish('rap_1', ['news'], 'headline', {});
    const headlines = (c: { frames: Frame[] }) => c.frames.filter((f) => f.event === 'headline');
    expect([stalled, bursty, reading].map((c) => headlines(c).length)).toEqual([0, 1, 1]);
    expect(engine.localChannels('rap_1')[0].connections).toBe(2);
  });
});
