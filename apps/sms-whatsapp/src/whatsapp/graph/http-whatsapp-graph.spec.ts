import { startGraphStandIn } from '@switchboard/testing';
import type { GraphStandIn } from '@switchboard/testing';
import { GRAPH_TOKEN_UNSET, isGraphTokenUnset } from './graph-response';
import type { GraphClientTuning } from './graph-tuning';
import { HttpWhatsAppGraph } from './http-whatsapp-graph';
import { NumberThroughput } from './number-throughput';
import { GraphError } from './whatsapp-graph';

const TOKEN = 'EAAG-secret-system-user-token';
const text = {
  messaging_product: 'whatsapp' as const,
  to: '+31612345678',
  type: 'text',
  text: { body: 'hello' },
};

async function failureOf(promise: Promise<unknown>): Promise<GraphError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GraphError);
    return error as GraphError;
  }
  throw new Error('expected a GraphError');
}

describe(HttpWhatsAppGraph.name, () => {
  let graph: GraphStandIn;
  const client = (tuning: Partial<GraphClientTuning> = {}, token: string | undefined = TOKEN) =>
    new HttpWhatsAppGraph(
      { WHATSAPP_GRAPH_URL: `${graph.url}/`, WHATSAPP_ACCESS_TOKEN: token },
      { backoffBaseMs: 20, backoffCapMs: 100, retryBudgetMs: 3_000, ...tuning },
    );

  beforeEach(async () => {
    graph = await startGraphStandIn({ accessToken: TOKEN, templatePageSize: 2 });
    graph.addAccount({ wabaId: '2001', name: 'Acme' });
    graph.addNumber({
      phoneNumberId: '3001',
      wabaId: '2001',
      displayPhoneNumber: '+1 555-010-0000',
      pin: '123456',
    });
  });
  afterEach(() => graph.stop());

  it('sends the Bearer token on every call and reads numbers, accounts and profiles', async () => {
    const whatsapp = client();
    await whatsapp.registerNumber('3001', '123456');
    await whatsapp.subscribeApp('2001');
    expect(await whatsapp.getPhoneNumber('3001')).toMatchObject({
      id: '3001',
      display_phone_number: '+1 555-010-0000',
      quality_rating: 'GREEN',
      throughput: { level: 'STANDARD' },
    });
    expect(await whatsapp.getBusinessAccount('2001')).toMatchObject({ id: '2001', name: 'Acme' });
    expect(await whatsapp.getBusinessProfile('3001')).toEqual({});
    expect(graph.isSubscribed('2001')).toBe(true);
    expect(graph.callsTo('POST', '/3001/register')[0].body).toEqual({
      messaging_product: 'whatsapp',
      pin: '123456',
    });
    expect(graph.calls.every((call) => call.headers.authorization === `Bearer ${TOKEN}`)).toBe(
      true,
    );
  });

  it('follows paging.next through every page of templates', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e'])
      graph.addTemplate('2001', {
        name,
        language: 'en',
        status: 'APPROVED',
        category: 'UTILITY',
        components: [],
      });
    const templates = await client().listTemplates('2001');
    expect(templates.map((template) => template.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(graph.callsTo('GET', '/2001/message_templates')).toHaveLength(3);
  });

  it('sends a message and resolves to its wamid; a read receipt resolves to an empty id', async () => {
    const whatsapp = client();
    const { messageId } = await whatsapp.sendMessage('3001', text);
    expect(messageId).toBe(graph.sent[0].wamid);
    expect(graph.sent[0].body).toEqual(text);
    const read = {
      messaging_product: 'whatsapp' as const,
      status: 'read' as const,
      message_id: 'wamid.in',
    };
    expect(await whatsapp.sendMessage('3001', read)).toEqual({ messageId: '' });
  });

  it('retries a 500 in-process and sends once it succeeds', async () => {
    graph.failNext(2, { status: 500 });
    const { messageId } = await client().sendMessage('3001', text);
    expect(messageId).toMatch(/^wamid\./);
    expect(graph.callsTo('POST', '/3001/messages').map((call) => call.status)).toEqual([
      500, 500, 200,
    ]);
    expect(graph.sent).toHaveLength(1);
  });

  it('waits for Retry-After on a 429 before trying again', async () => {
    graph.failNext(1, { status: 429, retryAfter: 1 });
    const started = Date.now();
    await client().sendMessage('3001', text);
    const [limited, sent] = graph.callsTo('POST', '/3001/messages');
    expect(limited.status).toBe(429);
    expect(sent.at - limited.at).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('throws a temporary GraphError when retries run out or Retry-After is past the budget', async () => {
    graph.failNext(10, { status: 503 });
    const exhausted = await failureOf(client({ retries: 2 }).getPhoneNumber('3001'));
    expect(exhausted).toMatchObject({ temporary: true, status: 503, metaCode: 2 });
    expect(graph.callsTo('GET', '/3001')).toHaveLength(3);
    graph.clearFailures();
    graph.failNext(1, { status: 429, retryAfter: 30 });
    const later = await failureOf(client().sendMessage('3001', text));
    expect(later).toMatchObject({ temporary: true, status: 429, retryAfterMs: 30_000 });
    expect(graph.sent).toHaveLength(0);
  });

  it("throws a 400 with Meta's code 131026 at once, as final", async () => {
    graph.failNext(1, {
      status: 400,
      code: 131026,
      subcode: 2494010,
      message: 'Message undeliverable',
    });
    const error = await failureOf(client().sendMessage('3001', text));
    expect(error).toMatchObject({
      temporary: false,
      status: 400,
      metaCode: 131026,
      metaSubcode: 2494010,
    });
    expect(error.message).toContain('Message undeliverable');
    expect(graph.callsTo('POST', '/3001/messages')).toHaveLength(1);
  });

  it('gives up on a call that outlives its time-out, as temporary, without retrying it here', async () => {
    graph.delayMs = 400;
    const error = await failureOf(client({ timeoutMs: 100 }).sendMessage('3001', text));
    expect(error).toMatchObject({ temporary: true, status: 0, metaCode: null });
    expect(error.message).toContain('within 100 ms');
    expect(graph.callsTo('POST', '/3001/messages')).toHaveLength(1);
  });

  it('retries a refused connection, then throws it as temporary', async () => {
    await graph.stop();
    const error = await failureOf(client({ retries: 1 }).getBusinessAccount('2001'));
    expect(error).toMatchObject({ temporary: true, status: 0 });
    graph = await startGraphStandIn({ accessToken: TOKEN });
  });

  it('refuses every call while WHATSAPP_ACCESS_TOKEN is unset, without calling Meta', async () => {
    const error = await failureOf(client({}, '').sendMessage('3001', text));
    expect(error).toMatchObject({ temporary: false, status: 0, message: GRAPH_TOKEN_UNSET });
    expect(isGraphTokenUnset(error)).toBe(true);
    expect(isGraphTokenUnset(new GraphError('x', true, 0, null))).toBe(false);
    expect(graph.calls).toHaveLength(0);
  });

  it('never puts the token in an error, even when Meta refuses it', async () => {
    const refused = await failureOf(client({}, `${TOKEN}-revoked`).getPhoneNumber('3001'));
    expect(refused).toMatchObject({ temporary: false, status: 401, metaCode: 190 });
    graph.delayMs = 300;
    const timedOut = await failureOf(client({ timeoutMs: 50 }).getMedia('4001'));
    for (const error of [refused, timedOut])
      expect(`${error.message} ${error.stack}`).not.toContain(TOKEN);
  });

  it('downloads media with the token from the URL Meta gives, and from no other host', async () => {
    graph.addMedia({ id: '4001', mimeType: 'image/jpeg', bytes: Buffer.from('jpeg-bytes') });
    const whatsapp = client();
    const media = await whatsapp.getMedia('4001');
    expect(media).toMatchObject({ id: '4001', mime_type: 'image/jpeg', file_size: 10 });
    expect((await whatsapp.downloadMedia(media.url)).toString()).toBe('jpeg-bytes');
    const foreign = await failureOf(whatsapp.downloadMedia('https://attacker.example/x'));
    expect(foreign).toMatchObject({ temporary: false });
    expect(graph.calls.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('paces sends per number at messagesPerSecond', async () => {
    const whatsapp = client({ messagesPerSecond: 10 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 11 }, () => whatsapp.sendMessage('3001', text)));
    // Burst of 1 at 10/s: the 11th send waits ten intervals (~1 s); loosely bounded both ways.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(850);
    expect(elapsed).toBeLessThan(5_000);
    expect(graph.sent).toHaveLength(11);
  });
});

describe(NumberThroughput.name, () => {
  it('serves each number its own bucket, first come first served', async () => {
    const throughput = new NumberThroughput(20);
    const order: string[] = [];
    const started = Date.now();
    await Promise.all([
      ...Array.from({ length: 6 }, (_, index) =>
        throughput.acquire('a').then(() => order.push(`a${index}`)),
      ),
      throughput.acquire('b').then(() => order.push('b')),
    ]);
    expect(order.filter((entry) => entry.startsWith('a'))).toEqual([
      'a0',
      'a1',
      'a2',
      'a3',
      'a4',
      'a5',
    ]);
    // 'b' does not wait behind 'a': it is served with the first of 'a'.
    expect(order.indexOf('b')).toBeLessThan(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});
