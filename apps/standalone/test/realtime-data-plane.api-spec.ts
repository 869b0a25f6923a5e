import { createHmac } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { BirdClient } from '@messagebird/sdk';
import { BirdRealtime } from '@messagebird/realtime';
import { call, createWorkspace } from '@switchboard/testing';
import type { CreatedWorkspace } from '@switchboard/testing';
import { io } from 'socket.io-client';
import WebSocket from 'ws';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

const eventually = async (check: () => Promise<boolean> | boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

/** What an app's backend signs (contract section 5): `<key>:<hex HMAC-SHA256(secret, s)>`. */
const authFor = (key: string, secret: string, signed: string) =>
  `${key}:${createHmac('sha256', secret).update(signed).digest('hex')}`;

/** Pusher's "over capacity": the server closed a connection that stopped reading. */
const CLOSE_OVER_CAPACITY = 4100;

interface AppWithKey {
  app: { id: string; connection_counting: boolean };
  key: { id: string; secret: string };
}

/**
 * The realtime data plane on the embedded default: the official browser client
 * (`@messagebird/realtime`, with `ws` as its WebSocket) on the API port, and the official SDK's
 * `realtime` resource for publishing and occupancy, its channel signatures from
 * `authorizeChannel`.
 */
describe('realtime data plane through the gateway', () => {
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  let created: AppWithKey;
  let bird: BirdClient;
  const clients: BirdRealtime[] = [];

  const connect = (appKey = created.key.id, memberData?: string) => {
    const client = new BirdRealtime({
      appKey,
      wsHost: platform.base.replace('http://', ''),
      allowInsecure: true,
      webSocket: (url: string) => new WebSocket(url) as unknown as globalThis.WebSocket,
      authorizer: ({ connectionId, channelName }: { connectionId: string; channelName: string }) =>
        bird.realtime.authorizeChannel({
          connectionId,
          channelName,
          ...(memberData && channelName.startsWith('presence-') ? { memberData } : {}),
        }) as never,
    } as never);
    clients.push(client);
    return client;
  };
  const connected = (client: BirdRealtime) =>
    eventually(
      () =>
        (client as unknown as { connection: { state: string } }).connection.state === 'connected',
    );
  const subscribed = async (client: BirdRealtime, channel: string) => {
    const handle = client.subscribe(channel);
    await eventually(() => handle.subscribed);
    return handle;
  };

  type Frame = { event: string; channel?: string; data?: string };
  const realtimeHeaders = () => ({
    'x-realtime-key': created.key.id,
    'x-realtime-secret': created.key.secret,
  });
  /** A raw socket.io client speaking the frames itself, once its connection is established. */
  const rawClient = async () => {
    const socket = io(platform.base, {
      path: '/realtime/socket.io',
      auth: { key: created.key.id },
      transports: ['websocket'],
      forceNew: true,
    });
    const frames: Frame[] = [];
    socket.on('message', (frame: Frame) => frames.push(frame));
    await eventually(() => frames.some((f) => f.event === 'bird:connection_established'));
    const id = (JSON.parse(frames[0].data ?? '{}') as { connection_id: string }).connection_id;
    return { socket, frames, id };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      RATE_LIMITS: 'read=100000,api_list=100000,write=100000,realtime_publish=100000',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    const made = await call<AppWithKey>(platform.base, 'POST', '/v1/realtime/apps', {
      token: acme.api_key.secret,
      body: { name: 'live', region: 'eu1', connection_counting: true },
    });
    expect(made.status).toBe(201);
    created = made.body;
    bird = new BirdClient({
      apiKey: acme.api_key.secret,
      baseUrl: platform.base,
      realtime: { key: created.key.id, secret: created.key.secret },
    } as never);
  });

  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await platform?.stop();
  });

  it('delivers a publish to every subscriber of the channel, and occupancy follows subscribers', async () => {
    const a = connect();
    const b = connect();
    await Promise.all([connected(a), connected(b)]);
    const received: unknown[] = [];
    (await subscribed(a, 'orders')).bind('order.updated', (data: unknown) => received.push(data));
    (await subscribed(b, 'orders')).bind('order.updated', (data: unknown) => received.push(data));
    const result = await bird.realtime.publish(created.app.id, {
      event: 'order.updated',
      channels: ['orders', 'nobody-here'],
      data: { order_id: 'ord_1', status: 'shipped' },
      include: ['connection_count'],
    });
    expect(result).toEqual({
      data: [
        { name: 'nobody-here', connection_count: 0 },
        { name: 'orders', connection_count: 2 },
      ],
    });
    await eventually(() => received.length === 2);
    expect(received).toEqual([
      { order_id: 'ord_1', status: 'shipped' },
      { order_id: 'ord_1', status: 'shipped' },
    ]);
    expect(await bird.realtime.channels.get(created.app.id, 'orders')).toMatchObject({
      occupied: true,
    });
    a.unsubscribe('orders');
    b.unsubscribe('orders');
    await eventually(
      async () => !(await bird.realtime.channels.get(created.app.id, 'orders')).occupied,
    );
    expect(await bird.realtime.channels.get(created.app.id, 'never-used')).toEqual({
      occupied: false,
    });
  });

  it('admits a private channel only with a valid signature', async () => {
    const client = connect();
    await connected(client);
    const handle = await subscribed(client, 'private-ledger');
    expect(handle.subscribed).toBe(true);
    const forged = new BirdRealtime({
      appKey: created.key.id,
      wsHost: platform.base.replace('http://', ''),
      allowInsecure: true,
      webSocket: (url: string) => new WebSocket(url) as unknown as globalThis.WebSocket,
      authorizer: () => Promise.resolve({ auth: `${created.key.id}:${'0'.repeat(64)}` }),
    } as never);
    clients.push(forged);
    await connected(forged);
    const errors: unknown[] = [];
    forged
      .subscribe('private-ledger')
      .bind('bird:subscription_error', (e: unknown) => errors.push(e));
    await eventually(() => errors.length === 1);
    expect(errors[0]).toMatchObject({ status: 401 });
  });

  it('tracks presence per member: added once across two connections, removed when the last leaves', async () => {
    const ada = JSON.stringify({ member_id: 'ada', member_info: { name: 'Ada' } });
    const watcher = connect(created.key.id, JSON.stringify({ member_id: 'watcher' }));
    await connected(watcher);
    const room = await subscribed(watcher, 'presence-room');
    const added: string[] = [];
    const removed: string[] = [];
    room.bind('bird:member_added', (m: { member_id: string }) => added.push(m.member_id));
    room.bind('bird:member_removed', (m: { member_id: string }) => removed.push(m.member_id));
    const tab1 = connect(created.key.id, ada);
    const tab2 = connect(created.key.id, ada);
    await Promise.all([connected(tab1), connected(tab2)]);
    await subscribed(tab1, 'presence-room');
    await subscribed(tab2, 'presence-room');
    await eventually(() => added.length === 1);
    const members = await bird.realtime.channels.members(created.app.id, 'presence-room');
    expect(members.members.map((m) => m.member_id).sort()).toEqual(['ada', 'watcher']);
    expect(
      await bird.realtime.channels.get(created.app.id, 'presence-room', {
        include: ['member_count', 'connection_count'],
      }),
    ).toEqual({ occupied: true, member_count: 2, connection_count: 3 });
    tab1.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(removed).toEqual([]);
    tab2.disconnect();
    await eventually(() => removed.length === 1);
    expect(added).toEqual(['ada']);
    expect(removed).toEqual(['ada']);
  });

  it("refuses an unknown key with a 4000-range close, and closes a revoked key's sockets at once", async () => {
    const unknown = connect('rak_00000000000000000000000000');
    await eventually(
      () => (unknown as unknown as { connection: { state: string } }).connection.state === 'failed',
    );
    const second = await call<{ id: string; secret: string }>(
      platform.base,
      'POST',
      `/v1/realtime/apps/${created.app.id}/keys`,
      {
        token: acme.api_key.secret,
      },
    );
    const doomed = connect(second.body.id);
    await connected(doomed);
    const revoked = await call(
      platform.base,
      'POST',
      `/v1/realtime/apps/${created.app.id}/keys/${second.body.id}/revoke`,
      {
        token: acme.api_key.secret,
      },
    );
    expect(revoked.status).toBe(200);
    await eventually(
      () => (doomed as unknown as { connection: { state: string } }).connection.state === 'failed',
    );
  });

  it('refuses a key path with broken percent-encoding like an unknown key, and outlives resets mid-handshake', async () => {
    // Each used to stop the whole process: a URIError, then an 'error' event nobody listened to.
    for (const path of ['/app/%E0%A4%A', '/app/%']) {
      const ws = new WebSocket(`${platform.base.replace('http', 'ws')}${path}`);
      const code = await new Promise<number>((resolve, reject) => {
        ws.on('close', (closed) => resolve(closed));
        ws.on('error', reject);
        setTimeout(() => reject(new Error(`no answer to ${path}`)), 5000).unref();
      });
      expect([path, code]).toEqual([path, 4001]);
    }
    const { port } = new URL(platform.base);
    for (let attempt = 0; attempt < 20; attempt++) {
      const socket = connectTcp(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.on('connect', resolve));
      socket.write(
        'GET /app/rak_aaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n' +
          'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          'Sec-WebSocket-Version: 13\r\n\r\n',
      );
      // At once, or once the key's lookup is under way.
      await new Promise((resolve) => setTimeout(resolve, attempt % 5));
      socket.resetAndDestroy();
    }
    const health = await call(platform.base, 'GET', '/healthz');
    expect(health.status).toBe(200);
  });

  it('reads a key it has just used again once its app changes, and refuses it the moment it is revoked', async () => {
    const token = acme.api_key.secret;
    const made = await call<AppWithKey>(platform.base, 'POST', '/v1/realtime/apps', {
      token,
      body: { name: 'cached', region: 'eu1', connection_counting: false },
    });
    const appPath = `/v1/realtime/apps/${made.body.app.id}`;
    const spare = await call<{ id: string; secret: string }>(
      platform.base,
      'POST',
      `${appPath}/keys`,
      {
        token,
      },
    );
    const publish = (include?: string[]) =>
      fetch(`${platform.base}${appPath}/events`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-realtime-key': spare.body.id,
          'x-realtime-secret': spare.body.secret,
        },
        body: JSON.stringify({ event: 'x', channels: ['c'], ...(include ? { include } : {}) }),
      }).then(async (res) => ({
        status: res.status,
        code: ((await res.json().catch(() => null)) as { error?: { code?: string } } | null)?.error
          ?.code,
      }));
    expect(await publish(['connection_count'])).toEqual({ status: 400, code: 'E01021' });
    const patched = await call(platform.base, 'PATCH', appPath, {
      token,
      body: { connection_counting: true },
    });
    expect(patched.status).toBe(200);
    expect((await publish(['connection_count'])).status).toBe(200);
    const revoked = await call(platform.base, 'POST', `${appPath}/keys/${spare.body.id}/revoke`, {
      token,
    });
    expect(revoked.status).toBe(200);
    expect((await publish()).status).toBe(401);
    const refused = connect(spare.body.id);
    await eventually(
      () => (refused as unknown as { connection: { state: string } }).connection.state === 'failed',
    );
  });

  it('sends member events to every connection of a signed-in member, and disconnects them all with 4009', async () => {
    const member = JSON.stringify({ member_id: 'grace', member_info: { plan: 'pro' } });
    const signedIn = (memberData: string) => {
      const client = new BirdRealtime({
        appKey: created.key.id,
        wsHost: platform.base.replace('http://', ''),
        allowInsecure: true,
        webSocket: (url: string) => new WebSocket(url) as unknown as globalThis.WebSocket,
        // What the app's backend answers: the member data signed with the app's key.
        memberAuthorizer: ({ connectionId }: { connectionId: string }) =>
          Promise.resolve({
            auth: authFor(
              created.key.id,
              created.key.secret,
              `${connectionId}::member::${memberData}`,
            ),
            member_data: memberData,
          }),
      } as never);
      clients.push(client);
      return client;
    };
    const phone = signedIn(member);
    const laptop = signedIn(member);
    await Promise.all([connected(phone), connected(laptop)]);
    await Promise.all([phone.signin(), laptop.signin()]);
    const got: string[] = [];
    phone.member.bind('nudge', () => got.push('phone'));
    laptop.member.bind('nudge', () => got.push('laptop'));
    // The member channel's subscription follows the sign-in.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await bird.realtime.members.send(created.app.id, 'grace', { event: 'nudge', data: { n: 1 } });
    await eventually(() => got.length === 2);
    expect(got.sort()).toEqual(['laptop', 'phone']);
    // Best effort, never queued: a connection signing in afterwards gets nothing of it.
    const late = signedIn(member);
    await connected(late);
    await late.signin();
    const lateGot: unknown[] = [];
    late.member.bind('nudge', (data: unknown) => lateGot.push(data));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lateGot).toEqual([]);
    const codes: number[] = [];
    for (const client of [phone, laptop, late])
      (
        client as unknown as {
          connection: { bind: (e: string, h: (p: { code: number }) => void) => void };
        }
      ).connection.bind('error', (payload) => codes.push(payload.code));
    await bird.realtime.members.disconnect(created.app.id, 'grace');
    await eventually(() => codes.length === 3);
    expect(codes).toEqual([4009, 4009, 4009]);
  });

  it('serves socket.io clients the same frames from the same engine', async () => {
    const socket = io(platform.base, {
      path: '/realtime/socket.io',
      auth: { key: created.key.id },
      transports: ['websocket'],
    });
    const frames: Array<{ event: string; channel?: string; data?: string }> = [];
    socket.on('message', (frame: { event: string; channel?: string; data?: string }) =>
      frames.push(frame),
    );
    try {
      await eventually(() => frames.some((f) => f.event === 'bird:connection_established'));
      const established = JSON.parse(frames[0].data ?? '{}') as {
        connection_id: string;
        activity_timeout: number;
      };
      expect(established.activity_timeout).toBeGreaterThan(0);
      socket.emit('message', { event: 'bird:subscribe', data: { channel: 'mixed' } });
      await eventually(() =>
        frames.some((f) => f.event === 'bird_internal:subscription_succeeded'),
      );
      const official = connect();
      await connected(official);
      const viaWs: unknown[] = [];
      (await subscribed(official, 'mixed')).bind('tick', (data: unknown) => viaWs.push(data));
      expect(
        await bird.realtime.channels.get(created.app.id, 'mixed', {
          include: ['connection_count'],
        }),
      ).toEqual({ occupied: true, connection_count: 2 });
      await bird.realtime.publish(created.app.id, {
        event: 'tick',
        channels: ['mixed'],
        data: { n: 1 },
      });
      await eventually(() => viaWs.length === 1 && frames.some((f) => f.event === 'tick'));
      expect(JSON.parse(frames.find((f) => f.event === 'tick')?.data ?? 'null')).toEqual({ n: 1 });
      socket.emit('message', { event: 'nonsense' });
      await eventually(() => frames.some((f) => f.event === 'bird:error'));
    } finally {
      socket.disconnect();
    }
    const refused = io(platform.base, {
      path: '/realtime/socket.io',
      auth: { key: 'rak_00000000000000000000000000' },
      transports: ['websocket'],
    });
    const errors: string[] = [];
    refused.on('connect_error', (err: Error) => errors.push(err.message));
    await eventually(() => errors.length > 0);
    refused.disconnect();
    expect(errors[0]).toMatch(/revoked app key/);
  });

  it('reaches socket.io subscribers by channel: not after they unsubscribe or leave, not the excluded connection', async () => {
    const clients = await Promise.all(
      [1, 2, 3].map(async () => {
        const { socket, frames, id } = await rawClient();
        for (const channel of ['rooms-a', 'rooms-b'])
          socket.emit('message', { event: 'bird:subscribe', data: { channel } });
        await eventually(
          () =>
            frames.filter((f) => f.event === 'bird_internal:subscription_succeeded').length === 2,
        );
        const got = (event: string) =>
          frames.filter((f) => f.event === event).map((f) => f.channel);
        return { socket, id, got };
      }),
    );
    const [first, second, third] = clients;
    try {
      first.socket.emit('message', { event: 'bird:unsubscribe', data: { channel: 'rooms-a' } });
      third.socket.disconnect();
      await eventually(async () => {
        const channel = await bird.realtime.channels.get(created.app.id, 'rooms-a', {
          include: ['connection_count'],
        });
        return channel.connection_count === 1;
      });
      await bird.realtime.publish(created.app.id, {
        event: 'update',
        channels: ['rooms-a', 'rooms-b'],
        data: { n: 1 },
      });
      await bird.realtime.publish(created.app.id, {
        event: 'excluded',
        channels: ['rooms-b'],
        data: { n: 2 },
        exclude_connection_id: second.id,
      });
      await eventually(() => first.got('excluded').length === 1);
      // A frame for the excluded one would have come before or with the first's: none did.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(first.got('update')).toEqual(['rooms-b']);
      expect(second.got('update').sort()).toEqual(['rooms-a', 'rooms-b']);
      expect(second.got('excluded')).toEqual([]);
      expect(third.got('update')).toEqual([]);
    } finally {
      for (const { socket } of clients) socket.disconnect();
    }
  });

  it('passes client events to the other subscribers of a private channel, at most 10 a second per connection', async () => {
    const [sender, receiver] = [connect(), connect()];
    await Promise.all([connected(sender), connected(receiver)]);
    const [sending, receiving] = [
      await subscribed(sender, 'private-chat'),
      await subscribed(receiver, 'private-chat'),
    ];
    const got: number[] = [];
    const echoed: number[] = [];
    receiving.bind('client-typing', (data: { n: number }) => got.push(data.n));
    sending.bind('client-typing', (data: { n: number }) => echoed.push(data.n));
    const refusals: string[] = [];
    (
      sender as unknown as {
        connection: {
          bind: (e: string, h: (p: { code: number; message: string }) => void) => void;
        };
      }
    ).connection.bind('error', (payload) => refusals.push(`${payload.code} ${payload.message}`));
    for (let n = 0; n < 25; n++) sending.trigger('client-typing', { n });
    await eventually(() => got.length + refusals.length === 25);
    // 25 at once span at most two one-second windows: 10 to 20 pass, the rest are refused.
    expect(got.length).toBeGreaterThanOrEqual(10);
    expect(got.length).toBeLessThanOrEqual(20);
    expect(refusals[0]).toMatch(/^4301 At most 10 client events a second/);
    expect(echoed).toEqual([]);
    // Public channels take no client events.
    const open = await subscribed(sender, 'lobby');
    open.trigger('client-typing', { n: 99 });
    await eventually(() => refusals.some((r) => r.includes('private and presence channels')));
  });

  it('delivers a publish retried with the same Idempotency-Key once', async () => {
    const client = connect();
    await connected(client);
    const seen: unknown[] = [];
    (await subscribed(client, 'once')).bind('ping', (data: unknown) => seen.push(data));
    const publish = () =>
      fetch(`${platform.base}/v1/realtime/apps/${created.app.id}/events`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${acme.api_key.secret}`,
          'content-type': 'application/json',
          'idempotency-key': 'publish-once-1',
          'x-realtime-key': created.key.id,
          'x-realtime-secret': created.key.secret,
        },
        body: JSON.stringify({ event: 'ping', channels: ['once'], data: { n: 1 } }),
      });
    expect((await publish()).status).toBe(200);
    const retried = await publish();
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotency-replay')).toBe('true');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([{ n: 1 }]);
  });

  it('answers every limit with a clear error before anything breaks: frame size, subscriptions per connection, members per presence channel, channels per publish', async () => {
    const sockets: Array<{ disconnect(): void }> = [];
    try {
      const one = await rawClient();
      sockets.push(one.socket);
      // A frame over 10,240 bytes: an error frame, and the connection stays usable.
      one.socket.emit('message', {
        event: 'bird:subscribe',
        data: { channel: 'x'.repeat(11_000) },
      });
      await eventually(() => one.frames.some((f) => f.event === 'bird:error'));
      expect(one.socket.connected).toBe(true);
      // 100 subscriptions per connection: the 101st is refused with status 400.
      for (let i = 0; i <= 100; i++)
        one.socket.emit('message', { event: 'bird:subscribe', data: { channel: `many-${i}` } });
      await eventually(() =>
        one.frames.some((f) => f.event === 'bird_internal:subscription_error'),
      );
      const refused = one.frames.find((f) => f.event === 'bird_internal:subscription_error');
      expect(refused?.channel).toBe('many-100');
      expect(JSON.parse(refused?.data ?? '{}')).toMatchObject({ status: 400 });

      // 100 members per presence channel: the 101st member is refused, a 100th's second tab is not.
      const join = async (memberId: string) => {
        const client = await rawClient();
        sockets.push(client.socket);
        const memberData = JSON.stringify({ member_id: memberId });
        client.socket.emit('message', {
          event: 'bird:subscribe',
          data: {
            channel: 'presence-full',
            member_data: memberData,
            auth: authFor(
              created.key.id,
              created.key.secret,
              `${client.id}:presence-full:${memberData}`,
            ),
          },
        });
        await eventually(() =>
          client.frames.some((f) => f.event.startsWith('bird_internal:subscription_')),
        );
        return client.frames.find((f) => f.event.startsWith('bird_internal:subscription_'))?.event;
      };
      for (let i = 0; i < 100; i++)
        expect(await join(`m${i}`)).toBe('bird_internal:subscription_succeeded');
      expect(await join('m100')).toBe('bird_internal:subscription_error');
      expect(await join('m99')).toBe('bird_internal:subscription_succeeded');
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
    // 100 channels per publish: 101 is a 422 naming channels, and nothing is delivered.
    const tooMany = await call(
      platform.base,
      'POST',
      `/v1/realtime/apps/${created.app.id}/events`,
      {
        token: acme.api_key.secret,
        headers: { 'x-realtime-key': created.key.id, 'x-realtime-secret': created.key.secret },
        body: { event: 'x', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) },
      },
    );
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toMatchObject({ error: { param: 'channels' } });
  }, 60_000);

  it('closes a connection whose reader stopped reading (WebSocket and socket.io), while one that reads gets every event', async () => {
    const channel = 'firehose';
    const reader = connect();
    await connected(reader);
    let read = 0;
    (await subscribed(reader, channel)).bind('chunk', () => (read += 1));
    // A WebSocket client of the official protocol, subscribed, that then stops reading.
    const ws = new WebSocket(
      `${platform.base.replace('http', 'ws')}/app/${created.key.id}?protocol=7&client=test`,
    );
    const wsFrames: Frame[] = [];
    ws.on('message', (raw: Buffer) => wsFrames.push(JSON.parse(raw.toString()) as Frame));
    await eventually(() => wsFrames.length > 0);
    ws.send(JSON.stringify({ event: 'bird:subscribe', data: { channel } }));
    const sio = await rawClient();
    sio.socket.emit('message', { event: 'bird:subscribe', data: { channel } });
    const succeeded = (frames: Frame[]) =>
      frames.some((f) => f.event === 'bird_internal:subscription_succeeded');
    await eventually(() => succeeded(wsFrames) && succeeded(sio.frames));
    const wsClosed = new Promise<number>((done) => ws.on('close', (code: number) => done(code)));
    const sioGone = new Promise<void>((done) => sio.socket.on('disconnect', () => done()));
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const engineIo = sio.socket.io.engine as unknown as {
      transport: { ws: { _socket: { pause(): void } } };
    };
    engineIo.transport.ws._socket.pause();

    // 10 events of ~9 KB a request: past what the kernel's buffers take, then past the limit.
    const batch = {
      events: Array.from({ length: 10 }, () => ({
        event: 'chunk',
        channel,
        data: 'x'.repeat(9_000),
      })),
    };
    const occupancy = async () =>
      (
        await call<{ connection_count: number }>(
          platform.base,
          'GET',
          `/v1/realtime/apps/${created.app.id}/channels/${channel}?include=connection_count`,
          { token: acme.api_key.secret, headers: realtimeHeaders() },
        )
      ).body.connection_count;
    let published = 0;
    while ((await occupancy()) > 1) {
      expect(published).toBeLessThan(8_000);
      for (let i = 0; i < 20; i++) {
        const res = await call(
          platform.base,
          'POST',
          `/v1/realtime/apps/${created.app.id}/batch-events`,
          { token: acme.api_key.secret, headers: realtimeHeaders(), body: batch },
        );
        expect(res.status).toBe(200);
        published += 10;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Both stalled readers were closed; the one that reads got every event.
    await eventually(() => read === published, 30_000);
    // Reading again, each finds its connection closed once it has read what was already sent.
    (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    (engineIo.transport.ws._socket as unknown as { resume(): void }).resume();
    expect([CLOSE_OVER_CAPACITY, 1006]).toContain(await wsClosed);
    await sioGone;
    sio.socket.disconnect(); // no reconnecting after the test
  }, 120_000);

  it('answers the data-plane rules with the envelope', async () => {
    const raw = (method: string, path: string, body?: unknown, key = created.key) =>
      fetch(`${platform.base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${acme.api_key.secret}`,
          'content-type': 'application/json',
          'x-realtime-key': key.id,
          'x-realtime-secret': key.secret,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (res) => ({
        status: res.status,
        body: (await res.json().catch(() => null)) as {
          error?: { code: string; details?: Array<{ param: string }> };
        },
      }));
    const base = `/v1/realtime/apps/${created.app.id}`;
    expect(
      (
        await raw(
          'POST',
          `${base}/events`,
          { event: 'x', channels: ['a'] },
          { id: created.key.id, secret: 'wrong' },
        )
      ).status,
    ).toBe(401);
    const bad = await raw('POST', `${base}/events`, { event: 'x', channels: ['ok', 'no spaces'] });
    expect(bad.status).toBe(422);
    expect(bad.body?.error?.details?.[0]?.param).toBe('channels[1]');
    const eleven = Array.from({ length: 11 }, (_, i) => ({ event: 'x', channel: `c${i}` }));
    expect((await raw('POST', `${base}/batch-events`, { events: eleven })).status).toBe(422);
    const big = await raw('POST', `${base}/events`, {
      event: 'x',
      channels: ['a'],
      data: 'x'.repeat(11_000),
    });
    expect(big.status).toBe(422);
    const members = await raw('POST', `${base}/events`, {
      event: 'x',
      channels: ['public'],
      include: ['member_count'],
    });
    expect(members.status).toBe(400);
    expect(members.body?.error).toMatchObject({ code: 'E01021', param: 'include' });
    expect(members.body?.error).not.toHaveProperty('details');
  });
});
