import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGraphStandIn } from './graph-stand-in';
import type { GraphStandIn } from './graph-stand-in';
import { startLegacyChannelSource } from './legacy-channel-source';

describe('startGraphStandIn', () => {
  let graph: GraphStandIn;
  const get = (path: string, token = graph.accessToken) =>
    fetch(path.startsWith('http') ? path : `${graph.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
  const post = (path: string, body: unknown) =>
    fetch(`${graph.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${graph.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeEach(async () => {
    graph = await startGraphStandIn({ templatePageSize: 2 });
    graph.addAccount({ wabaId: '2001', name: 'Acme' });
    graph.addNumber({
      phoneNumberId: '3001',
      wabaId: '2001',
      displayPhoneNumber: '+1 555-010-0000',
      pin: '123456',
    });
  });
  afterEach(() => graph.stop());

  it('refuses a missing or wrong token with 401 OAuthException 190 and records the call', async () => {
    const response = await get('/3001', 'wrong');
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ type: 'OAuthException', code: 190 });
    expect(body.error.fbtrace_id).toEqual(expect.any(String));
    expect(graph.callsTo('GET', '/3001')).toHaveLength(1);
    expect((await fetch(`${graph.url}/3001`)).status).toBe(401);
  });

  it('answers seeded objects with only the fields asked, and 100/33 for unknown ids', async () => {
    const number = await (await get('/3001?fields=display_phone_number,quality_rating')).json();
    expect(number).toEqual({
      id: '3001',
      display_phone_number: '+1 555-010-0000',
      quality_rating: 'GREEN',
    });
    expect(await (await get('/2001')).json()).toMatchObject({ id: '2001', name: 'Acme' });
    const unknown = await get('/9999');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: 100, error_subcode: 33, type: 'GraphMethodException' },
    });
  });

  it('pages templates with cursors and paging.next until the last page', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      graph.addTemplate('2001', {
        name,
        language: 'en_US',
        status: 'APPROVED',
        category: 'UTILITY',
        components: [],
      });
    const names: string[] = [];
    let next: string | undefined = `${graph.url}/2001/message_templates`;
    let pages = 0;
    while (next) {
      const page = (await (await get(next)).json()) as {
        data: Array<{ name: string }>;
        paging: { cursors: { after: string }; next?: string };
      };
      expect(page.paging.cursors.after).toEqual(expect.any(String));
      names.push(...page.data.map((template) => template.name));
      next = page.paging.next;
      pages++;
    }
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pages).toBe(3);
  });

  it('registers with the right PIN only, sends with a wamid and answers read receipts', async () => {
    expect(
      (await (
        await post('/3001/register', { messaging_product: 'whatsapp', pin: '000000' })
      ).json()) as object,
    ).toMatchObject({ error: { code: 133005 } });
    expect(
      await (await post('/3001/register', { messaging_product: 'whatsapp', pin: '123456' })).json(),
    ).toEqual({ success: true });
    const sent = (await (
      await post('/3001/messages', {
        messaging_product: 'whatsapp',
        to: '+31612345678',
        type: 'text',
        text: { body: 'hi' },
      })
    ).json()) as { contacts: unknown[]; messages: Array<{ id: string }> };
    expect(sent.contacts).toEqual([{ input: '+31612345678', wa_id: '31612345678' }]);
    expect(sent.messages[0].id).toMatch(/^wamid\./);
    expect(
      await (
        await post('/3001/messages', {
          messaging_product: 'whatsapp',
          status: 'read',
          message_id: 'wamid.x',
        })
      ).json(),
    ).toEqual({ success: true });
    expect(graph.sentFrom('3001').map((message) => message.wamid)).toEqual([
      sent.messages[0].id,
      '',
    ]);
  });

  it('fails the next calls on demand, then for a time span, with Retry-After', async () => {
    graph.failNext(1, { status: 429, retryAfter: 2, path: /\/messages$/ });
    expect((await get('/3001')).status).toBe(200);
    const limited = await post('/3001/messages', {
      messaging_product: 'whatsapp',
      to: '1',
      text: { body: 'x' },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    graph.failFor(300, { status: 500 });
    const failed = await get('/3001');
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { code: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await get('/3001')).status).toBe(200);
  });

  it('hands out a media URL that downloads the bytes with the token only', async () => {
    graph.addMedia({ id: '4001', mimeType: 'image/png', bytes: Buffer.from('png-bytes') });
    const info = (await (await get('/4001')).json()) as {
      url: string;
      mime_type: string;
      sha256: string;
    };
    expect(info.mime_type).toBe('image/png');
    expect((await fetch(info.url)).status).toBe(401);
    const download = await get(info.url);
    expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('png-bytes');
  });

  it('posts webhooks signed with sha256= HMAC of the raw body, or badly signed', async () => {
    const received: Array<{ signature: string | undefined; raw: string }> = [];
    const receiver = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        received.push({
          signature: request.headers['x-hub-signature-256'] as string | undefined,
          raw,
        });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/whatsapp`;
    const payload = graph.statusPayload({
      ...graph.webhookNumber('3001'),
      wamid: 'wamid.abc',
      status: 'failed',
      recipient: '31612345678',
      errors: [{ code: 131026, title: 'Message undeliverable' }],
    });
    expect((await graph.postWebhook(url, payload, { appSecret: 's3cret' })).status).toBe(200);
    await graph.postWebhook(url, payload, { appSecret: 's3cret', badSignature: true });
    receiver.close();
    const expected = `sha256=${createHmac('sha256', 's3cret').update(received[0].raw).digest('hex')}`;
    expect(received[0].signature).toBe(expected);
    expect(received[1].signature).not.toBe(expected);
    expect(JSON.parse(received[0].raw)).toMatchObject({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '2001',
          changes: [
            {
              field: 'messages',
              value: { statuses: [{ id: 'wamid.abc', errors: [{ code: 131026 }] }] },
            },
          ],
        },
      ],
    });
  });
  it("builds inbound messages and template updates in Meta's shapes", () => {
    const number = graph.webhookNumber('3001');
    expect(number).toEqual({
      wabaId: '2001',
      phoneNumberId: '3001',
      displayPhoneNumber: '15550100000',
    });
    const base = { ...number, from: '31612345678', wamid: 'wamid.in', timestamp: 1_700_000_000 };
    const valueOf = (payload: { entry: Array<{ changes: Array<{ value: unknown }> }> }) =>
      payload.entry[0].changes[0].value as {
        metadata: unknown;
        contacts: unknown[];
        messages: unknown[];
      };
    const text = valueOf(graph.inboundTextPayload({ ...base, text: 'hi', userId: 'US.1' }));
    expect(text.metadata).toEqual({ display_phone_number: '15550100000', phone_number_id: '3001' });
    expect(text.contacts).toEqual([
      { profile: { name: 'Test User' }, wa_id: '31612345678', user_id: 'US.1' },
    ]);
    expect(text.messages).toEqual([
      {
        from: '31612345678',
        from_user_id: 'US.1',
        id: 'wamid.in',
        timestamp: '1700000000',
        type: 'text',
        text: { body: 'hi' },
      },
    ]);
    const media = valueOf(
      graph.inboundMediaPayload({
        ...base,
        kind: 'document',
        mediaId: '4001',
        mimeType: 'application/pdf',
        sha256: 'abc',
        filename: 'a.pdf',
      }),
    );
    expect(media.messages[0]).toMatchObject({
      type: 'document',
      document: { id: '4001', mime_type: 'application/pdf', sha256: 'abc', filename: 'a.pdf' },
    });
    const reaction = valueOf(
      graph.inboundReactionPayload({ ...base, messageId: 'wamid.out', emoji: '👍' }),
    );
    expect(reaction.messages[0]).toMatchObject({
      type: 'reaction',
      reaction: { message_id: 'wamid.out', emoji: '👍' },
    });
    const reply = valueOf(
      graph.inboundInteractiveReplyPayload({
        ...base,
        context: { id: 'wamid.out' },
        reply: { type: 'button_reply', id: 'yes', title: 'Yes' },
      }),
    );
    expect(reply.messages[0]).toMatchObject({
      type: 'interactive',
      context: { from: '15550100000', id: 'wamid.out' },
      interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
    });
    const update = graph.templateStatusPayload({
      wabaId: '2001',
      templateId: '77',
      name: 'order',
      language: 'en',
      event: 'APPROVED',
    });
    expect(update.entry[0].changes[0]).toEqual({
      field: 'message_template_status_update',
      value: {
        event: 'APPROVED',
        message_template_id: 77,
        message_template_name: 'order',
        message_template_language: 'en',
        reason: 'NONE',
      },
    });
  });
});

describe('startLegacyChannelSource', () => {
  it('pages channels by limit and offset behind the AccessKey', async () => {
    const channel = (id: string) => ({
      id,
      name: `Channel ${id}`,
      settings: {
        waba_id: '2001',
        msisdn: '15550100000',
        phone_number_id: id,
        pin: '123456',
        display_name: 'Acme',
      },
    });
    const source = await startLegacyChannelSource({
      accessKey: 'k1',
      channels: [channel('a'), channel('b'), channel('c')],
    });
    try {
      expect(
        (await fetch(`${source.url}/v1/channels`, { headers: { authorization: 'AccessKey no' } }))
          .status,
      ).toBe(401);
      const page = await (
        await fetch(`${source.url}/v1/channels?limit=2&offset=1&platform=whatsapp`, {
          headers: { authorization: 'AccessKey k1' },
        })
      ).json();
      expect(page).toEqual({ count: 3, channels: [channel('b'), channel('c')] });
    } finally {
      await source.stop();
    }
  });
});
