import { RealtimeEngine, SubscriptionRefused } from './engine';
import type { ClientConnection } from './engine';
import type { Frame } from './protocol';
import { authFor, signedString } from './signatures';

const KEY = 'rak_test';
const SECRET = 'secret';

function fakeConnection(engine: RealtimeEngine, appId = 'rap_1', keyId = KEY) {
  const frames: Frame[] = [];
  const closes: number[] = [];
  const connection: ClientConnection = {
    id: engine.newConnectionId(),
    appId,
    keyId,
    secret: SECRET,
    send: (frame) => frames.push(frame),
    close: (code) => closes.push(code),
  };
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
});
