import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BirdClient, BirdNotFoundError, BirdValidationError } from '@messagebird/sdk';
import { call, createWorkspace } from '@switchboard/testing';
import type { ApiResponse, CreatedWorkspace } from '@switchboard/testing';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

type VoiceCall = Awaited<ReturnType<BirdClient['voice']['get']>>;

/** Every member of the SDK's VoiceCall: a field it does not have fails to compile. */
const CALL_FIELDS = {
  always: [
    'id',
    'session_id',
    'workspace_id',
    'direction',
    'from',
    'to',
    'sip_trunk_id',
    'status',
    'sip_response_code',
    'started_at',
    'answered_at',
    'ended_at',
    'duration_ms',
    'billable_ms',
  ],
  optional: ['actor', 'rejection_reason', 'route', 'tags', 'pdd_ms', 'media_quality', 'cost'],
} as const satisfies Record<string, ReadonlyArray<keyof VoiceCall>>;

interface Envelope {
  error: { code: string; details?: Array<{ param: string; message: string }> };
}
const paramsOf = (response: ApiResponse) =>
  ((response.body as unknown as Envelope).error?.details ?? []).map((detail) => detail.param);

const T0 = '2026-11-20T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

/** Voice call records: the SIP platform's reports (operator API) and `bird.voice`. */
describe('voice call records through the gateway', () => {
  let platform: TestPlatform;
  let acme: CreatedWorkspace;
  let globex: CreatedWorkspace;
  let bird: BirdClient;
  let rival: BirdClient;
  const report = (workspaceId: string, body: Record<string, unknown>) =>
    call<VoiceCall>(platform.base, 'POST', `/admin/v1/workspaces/${workspaceId}/voice/calls`, {
      token: TEST_ADMIN_TOKEN,
      body,
    });
  const eventsOf = async (callId: string) =>
    (
      await platform.db.query<{
        type: string;
        payload: { timestamp: string; data: Record<string, unknown> };
      }>(
        "SELECT type, payload FROM sms_whatsapp.outbox WHERE payload->'data'->>'call_id' = $1 ORDER BY seq",
        [callId],
      )
    ).rows;
  const leg = {
    session_id: 'sess-1',
    direction: 'outbound',
    from: '+14155551234',
    to: '+16505559876',
    sip_trunk_id: 'trk_1',
    started_at: T0,
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ RATE_LIMITS: 'off', WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    globex = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Globex' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    rival = new BirdClient({
      apiKey: globex.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
  });

  it('records a leg on its first report (201) and updates it on later ones (200), with its events', async () => {
    const ringing = await report(acme.workspace.id, {
      ...leg,
      status: 'ringing',
      actor: { id: 'ak_1', type: 'api_key', display_name: 'PBX' },
      tags: [
        { name: 'campaign', value: 'spring' },
        { name: 'campaign', value: 'ignored' },
        { name: 'bad name', value: 'x' },
        { name: 'queue', value: 'sales' },
      ],
    });
    expect(ringing.status).toBe(201);
    const id = ringing.body.id;
    expect(ringing.body).toEqual({
      id: expect.stringMatching(/^vcl_[0-9a-z]{26}$/),
      session_id: 'sess-1',
      workspace_id: acme.workspace.id,
      direction: 'outbound',
      from: '+14155551234',
      to: '+16505559876',
      actor: { id: 'ak_1', type: 'api_key', display_name: 'PBX' },
      sip_trunk_id: 'trk_1',
      status: 'ringing',
      sip_response_code: null,
      tags: [
        { name: 'campaign', value: 'spring' },
        { name: 'queue', value: 'sales' },
      ],
      started_at: T0,
      answered_at: null,
      ended_at: null,
      duration_ms: null,
      billable_ms: null,
    });
    const connected = await report(acme.workspace.id, {
      ...leg,
      status: 'in_progress',
      answered_at: at(4),
      pdd_ms: 1200,
    });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({
      id,
      status: 'in_progress',
      answered_at: at(4),
      pdd_ms: 1200,
      ended_at: null,
    });
    const ended = await report(acme.workspace.id, {
      ...leg,
      status: 'answered',
      answered_at: at(4),
      ended_at: at(64),
      sip_response_code: 200,
      media_quality: { mos: 4.3, jitter_ms: 3, packet_loss_pct: 0.1, round_trip_time_ms: 80 },
      cost: {
        amount: '0.0140',
        currency_code: 'USD',
        outbound_amount: '0.0140',
        inbound_amount: null,
        call_handling_amount: null,
        recording_amount: null,
        transcription_amount: null,
      },
    });
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({
      id,
      status: 'answered',
      duration_ms: 64_000,
      billable_ms: 60_000,
      ended_at: at(64),
    });
    const late = await report(acme.workspace.id, { ...leg, status: 'ringing' });
    expect(late.status).toBe(200);
    expect(late.body.status).toBe('answered');

    const events = await eventsOf(id);
    expect(events.map((event) => event.type)).toEqual([
      'voice_call.initiated',
      'voice_call.answered',
      'voice_call.ended',
    ]);
    const base = {
      call_id: id,
      session_id: 'sess-1',
      workspace_id: acme.workspace.id,
      direction: 'outbound',
      from: '+14155551234',
      to: '+16505559876',
    };
    expect(events[0].payload).toEqual({ type: 'voice_call.initiated', timestamp: T0, data: base });
    expect(events[1].payload).toEqual({
      type: 'voice_call.answered',
      timestamp: at(4),
      data: base,
    });
    expect(events[2].payload).toEqual({
      type: 'voice_call.ended',
      timestamp: at(64),
      data: {
        ...base,
        status: 'answered',
        sip_response_code: 200,
        duration_ms: 64_000,
        billable_ms: 60_000,
      },
    });

    const read = await bird.voice.get(id);
    expect(read).toEqual(ended.body);
    for (const key of Object.keys(read))
      expect([...CALL_FIELDS.always, ...CALL_FIELDS.optional]).toContain(key);
    for (const key of CALL_FIELDS.always) expect(read).toHaveProperty(key);
  });

  it('records one leg when its first two reports race: one 201, one 200, one initiated event', async () => {
    const race = { ...leg, session_id: 'sess-race', status: 'ringing' };
    const [a, b] = await Promise.all([
      report(acme.workspace.id, race),
      report(acme.workspace.id, race),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(b.body.id);
    expect((await eventsOf(a.body.id)).map((e) => e.type)).toEqual(['voice_call.initiated']);
  });

  it('reports an unanswered call once, ended: initiated and ended, billable 0', async () => {
    const missed = await report(acme.workspace.id, {
      direction: 'inbound',
      from: '0031 20 123 4567',
      to: '+14155550100',
      status: 'no_answer',
      started_at: at(100),
      ended_at: at(130),
      sip_response_code: 480,
      tags: [{ name: 'queue', value: 'support' }],
      route: { type: 'trunk', trunk_id: 'trk_2' },
    });
    expect(missed.status).toBe(201);
    expect(missed.body).toMatchObject({
      session_id: null,
      from: '+31201234567',
      duration_ms: 30_000,
      billable_ms: 0,
      answered_at: null,
      route: { type: 'trunk', trunk_id: 'trk_2' },
    });
    expect((await eventsOf(missed.body.id)).map((e) => e.type)).toEqual([
      'voice_call.initiated',
      'voice_call.ended',
    ]);
  });

  it('refuses a report whose values are not a call, naming each field', async () => {
    const inFlight = await report(acme.workspace.id, {
      ...leg,
      session_id: 'sess-bad',
      status: 'ringing',
      ended_at: at(5),
      duration_ms: 5,
    });
    expect(inFlight.status).toBe(422);
    expect(paramsOf(inFlight).sort()).toEqual(['duration_ms', 'ended_at']);
    const shape = await report(acme.workspace.id, {
      ...leg,
      status: 'dialing',
      from: 'anonymous',
      started_at: 'yesterday',
      id: 'vcl_x',
    });
    expect(shape.status).toBe(422);
    expect(paramsOf(shape).sort()).toEqual(['id', 'status']);
    const values = await report(acme.workspace.id, {
      ...leg,
      status: 'ringing',
      from: 'anonymous',
      started_at: 'yesterday',
      workspace_id: globex.workspace.id,
    });
    expect(paramsOf(values).sort()).toEqual(['from', 'started_at', 'workspace_id']);
    // Past what the columns hold: milliseconds beyond bigint, a year 10000 instant in UTC.
    const tooLong = await report(acme.workspace.id, { ...leg, status: 'ringing', pdd_ms: 1e19 });
    expect(tooLong.status).toBe(422);
    expect(paramsOf(tooLong)).toEqual(['pdd_ms']);
    const tooLate = { ...leg, status: 'ringing', started_at: '9999-12-31T23:00:00-01:00' };
    const late = await report(acme.workspace.id, tooLate);
    expect(late.status).toBe(422);
    expect(paramsOf(late)).toEqual(['started_at']);
    const nobody = await report('ws_00000000000000000000000000', { ...leg, status: 'ringing' });
    expect(nobody.status).toBe(404);
    // Arrays where an object is due, or an array inside the list of tags: 422, never stored
    // (`tags: [[]]` reached the service as a tag and answered 500).
    const arrays = await report(acme.workspace.id, {
      ...leg,
      session_id: 'sess-arrays',
      status: 'ringing',
      actor: [],
      media_quality: [],
      cost: [[]],
      tags: [[], { name: 'a', value: 'b' }],
    });
    expect(arrays.status).toBe(422);
    expect(paramsOf(arrays).sort()).toEqual(['actor', 'cost', 'media_quality', 'tags']);
  });

  describe('bird.voice.list', () => {
    beforeAll(async () => {
      for (const [i, status] of (
        ['answered', 'failed', 'ringing', 'in_progress'] as const
      ).entries()) {
        const response = await report(acme.workspace.id, {
          session_id: `list-${i}`,
          direction: i % 2 ? 'inbound' : 'outbound',
          from: `+4420794609${50 + i}`,
          to: '+16505550000',
          status,
          sip_trunk_id: i === 1 ? 'trk_list' : null,
          started_at: at(1000 + i * 60),
          ...(status === 'answered' ? { answered_at: at(1001), ended_at: at(1030) } : {}),
          ...(status === 'failed' ? { ended_at: at(1065), sip_response_code: 503 } : {}),
          tags: [{ name: 'batch', value: `b${i}` }],
        });
        expect(response.status).toBe(201);
      }
    });

    it('lists ended calls only by default, latest start first; status selects in-flight ones', async () => {
      const ended = await bird.voice.list({ limit: 100 });
      expect(ended.data.every((c) => !['ringing', 'in_progress'].includes(c.status))).toBe(true);
      const starts = ended.data.map((c) => c.started_at);
      expect(starts).toEqual([...starts].sort().reverse());
      const live = await bird.voice.list({ status: ['ringing', 'in_progress'] });
      expect(live.data.map((c) => c.status).sort()).toEqual(['in_progress', 'ringing', 'ringing']);
      const mixed = await bird.voice.list({ status: ['ringing', 'failed'], tag: ['batch'] });
      expect(mixed.data.map((c) => c.status)).toEqual(['ringing', 'failed']);
      await expect(
        bird.voice.list({ status: ['dialing' as VoiceCall['status']] }),
      ).rejects.toBeInstanceOf(BirdValidationError);
    });

    it('filters by direction, session, trunk, whole from/to, a number fragment, tags and start bounds', async () => {
      const all = ['answered', 'failed', 'ringing', 'in_progress'] as VoiceCall['status'][];
      const ids = async (query: Parameters<BirdClient['voice']['list']>[0]) =>
        (await bird.voice.list({ status: all, ...query })).data.map((c) => c.session_id);
      expect(await ids({ tag: ['batch'], direction: 'inbound' })).toEqual(['list-3', 'list-1']);
      expect(await ids({ session_id: 'list-2' })).toEqual(['list-2']);
      expect(await ids({ sip_trunk_id: 'trk_list' })).toEqual(['list-1']);
      for (const from of ['+442079460952', '442079460952', '00442079460952'])
        expect(await ids({ from })).toEqual(['list-2']);
      expect(await ids({ to: '16505550000' })).toHaveLength(4);
      expect(await ids({ number: '2079460951' })).toEqual(['list-1']);
      expect(await ids({ number: '6505550000' })).toHaveLength(4);
      expect(await ids({ tag: ['batch:b0'] })).toEqual(['list-0']);
      expect(await ids({ tag: ['batch', 'campaign'] })).toEqual([]);
      expect(
        await ids({ tag: ['batch'], started_after: at(1060), started_before: at(1120) }),
      ).toEqual(['list-2', 'list-1']);
      for (const started_after of ['yesterday', '9999-12-31T23:00:00-01:00'])
        await expect(bird.voice.list({ started_after })).rejects.toBeInstanceOf(
          BirdValidationError,
        );
      await expect(bird.voice.list({ from: 'anonymous' })).rejects.toBeInstanceOf(
        BirdValidationError,
      );
    });

    it('pages with cursors', async () => {
      const first = await bird.voice.list({
        status: ['ringing', 'in_progress', 'answered', 'failed'],
        tag: ['batch'],
        limit: 3,
      });
      expect(first.data).toHaveLength(3);
      const rest = await bird.voice.list({
        status: ['ringing', 'in_progress', 'answered', 'failed'],
        tag: ['batch'],
        limit: 3,
        starting_after: first.next_cursor!,
      });
      expect(rest.data.map((c) => c.session_id)).toEqual(['list-0']);
      const back = await bird.voice.list({
        status: ['ringing', 'in_progress', 'answered', 'failed'],
        tag: ['batch'],
        limit: 3,
        ending_before: rest.prev_cursor!,
      });
      expect(back.data).toEqual(first.data);
      const walked: Array<string | null | undefined> = [];
      for await (const call of bird.voice.list({
        status: ['ringing', 'in_progress', 'answered', 'failed'],
        tag: ['batch'],
        limit: 1,
      }))
        walked.push(call.session_id);
      expect(walked).toEqual(['list-3', 'list-2', 'list-1', 'list-0']);
    });
  });

  it("answers 404 for another workspace's calls and lists none of them", async () => {
    const [ours] = (await bird.voice.list({ limit: 1 })).data;
    await expect(rival.voice.get(ours.id)).rejects.toBeInstanceOf(BirdNotFoundError);
    expect(
      (
        await rival.voice.list({
          status: ['ringing', 'in_progress', 'answered', 'no_answer', 'failed'],
        })
      ).data,
    ).toEqual([]);
    await expect(bird.voice.get('vcl_00000000000000000000000000')).rejects.toMatchObject({
      statusCode: 404,
      code: 'E04066',
    });
  });

  it('delivers voice_call.* events to a webhook, verified by the SDK', async () => {
    const received: Array<{ body: string; headers: Record<string, string> }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers as Record<string, string>,
        });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const endpoint = (await bird.webhooks.create({
        url: `http://127.0.0.1:${port}/voice`,
        events: ['voice_call.initiated', 'voice_call.answered', 'voice_call.ended'],
      })) as unknown as { secret: string };
      const hooked = { ...leg, session_id: 'sess-hook' };
      await report(acme.workspace.id, { ...hooked, status: 'in_progress', answered_at: at(2) });
      await report(acme.workspace.id, { ...hooked, status: 'answered', ended_at: at(12) });
      // An earlier test's event, relayed after the endpoint was created, may come too.
      const hookedEvents = () =>
        received
          .map((request) =>
            bird.webhooks.unwrap(request.body, request.headers, { secret: endpoint.secret }),
          )
          .filter((event) => 'session_id' in event.data && event.data.session_id === 'sess-hook');
      const deadline = Date.now() + 15_000;
      while (hookedEvents().length < 3 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const events = hookedEvents();
      expect(events.map((event) => event.type).sort()).toEqual([
        'voice_call.answered',
        'voice_call.ended',
        'voice_call.initiated',
      ]);
      const ended = events.find((event) => event.type === 'voice_call.ended');
      expect(ended?.data).toMatchObject({
        session_id: 'sess-hook',
        duration_ms: 12_000,
        billable_ms: 10_000,
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
