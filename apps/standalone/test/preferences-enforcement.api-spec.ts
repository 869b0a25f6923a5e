import { BirdClient } from '@messagebird/sdk';
import type { PreferenceWriteResult, WhatsAppMessage } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  publishedAs,
  startDnsServer,
  startGraphStandIn,
  startSmtpSink,
  startTestSmsc,
} from '@switchboard/testing';
import type {
  CreatedWorkspace,
  GraphStandIn,
  SmtpSink,
  TestDnsServer,
  TestSmsc,
} from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';
import { seedNumber, seedTemplate, setServiceWindow } from './whatsapp-messages.fixtures';
import type { SeededNumber } from './whatsapp-messages.fixtures';

interface EmailRecipient {
  recipient: string;
  status: string;
  rejection_reason: string | null;
}

/** Reads until `done`, every 25 ms, for at most `ms` (never a fixed sleep). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`not done after ${ms} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const OUR_NUMBER = '+31612340000';
const later = (iso: string) => new Date(new Date(iso).getTime() + 1).toISOString();

/**
 * Preferences enforced in every channel (ADR 14), end to end on the embedded default with the
 * official SDK: statements recorded through the ledger reach each channel's projection as events,
 * then email (at processing, a real SMTP sink), SMS (at accept, a real SMSC over SMPP) and WhatsApp
 * (at accept, a Graph stand-in) refuse what they stop. Enforcement follows the event, so each test
 * waits for the statement to be projected by polling the projection.
 */
describe('preferences enforced in every channel', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let smsc: TestSmsc;
  let graph: GraphStandIn;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let whatsappSender: SeededNumber;
  const domain = 'mail.acme.test';
  const lags: number[] = [];

  /** Waits until the write is in the channel service's projection (the statement is enforced). */
  const projected = async (
    schema: 'email' | 'sms_whatsapp',
    workspaceId: string,
    write: PreferenceWriteResult,
  ) => {
    const started = Date.now();
    await eventually(
      async () =>
        (
          await platform.db.query(
            `SELECT 1 FROM ${schema}.preference_states WHERE workspace_id = $1 AND transition_id = $2`,
            [workspaceId, write.transition_id],
          )
        ).rowCount,
      (found) => found === 1,
    );
    lags.push(Date.now() - started);
  };
  const emailRecipients = async (id: string) =>
    (
      await call<{ data: EmailRecipient[] }>(
        platform.base,
        'GET',
        `/v1/email/messages/${id}/recipients`,
        { token: acme.api_key.secret },
      )
    ).body.data;
  const emailSettled = (id: string) =>
    eventually(
      () => bird.email.get(id),
      (message) => ['delivered', 'rejected', 'partial_failure', 'bounced'].includes(message.status),
    );
  const sunk = (id: string) => sink.messages.filter((m) => m.messageId.startsWith(`${id}@`));
  const sendEmail = (to: string[], category: 'marketing' | 'transactional') =>
    bird.email.send({
      from: { email: `news@${domain}`, name: 'Acme' },
      to,
      subject: `A ${category} message`,
      text: 'Hello',
      category,
    });
  const submittedTo = (number: string) =>
    smsc.submits.filter((submit) => `+${submit.destination.addr}` === number);
  const smsSent = (id: string) =>
    eventually(
      () => bird.sms.get(id),
      (message) => ['sent', 'delivered'].includes(message.status),
    );

  /** A copy of a WhatsApp message row under a sibling id, with `changes`; answers its id. */
  const copyWhatsApp = async (id: string, changes: Record<string, unknown>): Promise<string> => {
    const copy = `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
    await platform.db.query(
      `INSERT INTO sms_whatsapp.whatsapp_messages
       SELECT (jsonb_populate_record(NULL::sms_whatsapp.whatsapp_messages,
         to_jsonb(m) || $3::jsonb || jsonb_build_object('id', $1::text))).*
       FROM sms_whatsapp.whatsapp_messages m WHERE m.id = $2`,
      [copy, id, JSON.stringify(changes)],
    );
    return copy;
  };

  beforeAll(async () => {
    [sink, dns, smsc, graph] = await Promise.all([
      startSmtpSink(),
      startDnsServer(),
      startTestSmsc({ receipts: () => ({ stat: 'DELIVRD' }) }),
      startGraphStandIn(),
    ]);
    platform = await startTestPlatform({
      RATE_LIMITS: 'off',
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
      SMPP_URL: smsc.url,
      WHATSAPP_GRAPH_URL: graph.url,
      WHATSAPP_ACCESS_TOKEN: graph.accessToken,
      WHATSAPP_APP_SECRET: 'preferences-enforcement-app-secret',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    // A verified sending domain, an SMS number and two sender IDs, a WhatsApp number.
    const registered = await bird.domains.create({ domain });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect((await bird.domains.verify(registered.id)).status).toBe('verified');
    const admin = (path: string, body: unknown) =>
      call(platform.base, 'POST', path, { token: platform.adminToken, body });
    const stocked = await admin('/admin/v1/numbers', {
      number: OUR_NUMBER,
      number_type: 'mobile',
      capabilities: ['sms'],
    });
    expect(stocked.status).toBe(201);
    expect((await bird.numbers.orders.create({ number: OUR_NUMBER })).status).toBe('completed');
    const senders = `/admin/v1/workspaces/${acme.workspace.id}/sms-senders`;
    expect((await admin(senders, { sender: 'Acme' })).status).toBe(201);
    expect(
      (await admin(senders, { sender: 'AcmeOtp', categories: ['authentication'] })).status,
    ).toBe(201);
    whatsappSender = await seedNumber(platform.db, acme.workspace.id, {
      phoneNumber: '+31612349000',
    });
    await seedTemplate(platform.db, acme.workspace.id, whatsappSender, { slug: 'order_update' });
    await seedTemplate(platform.db, acme.workspace.id, whatsappSender, {
      slug: 'spring_sale',
      category: 'marketing',
    });
    graph.addAccount({ wabaId: whatsappSender.waba });
    graph.addNumber({
      phoneNumberId: whatsappSender.phoneNumberId,
      wabaId: whatsappSender.waba,
      displayPhoneNumber: whatsappSender.phoneNumber,
    });
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([sink?.stop(), dns?.stop(), smsc?.stop(), graph?.stop()]);
    if (process.env.PREFERENCES_LAG_REPORT)
      process.stdout.write(`projection lag (ms), write answered to visible: ${lags.join(' ')}\n`);
  });

  it('email: a revoked handle is rejected recipient_suppressed and never reaches SMTP, while transactional mail still goes', async () => {
    const revoke = await bird.preferences.create({
      channel: 'email',
      handle: 'Gone@Example.com',
      status: 'revoked',
    });
    await projected('email', acme.workspace.id, revoke);
    const marketing = await sendEmail(['gone@example.com', 'kept@example.com'], 'marketing');
    await emailSettled(marketing.id);
    expect(
      (await emailRecipients(marketing.id)).map((r) => [r.recipient, r.status, r.rejection_reason]),
    ).toEqual(
      expect.arrayContaining([
        ['gone@example.com', 'rejected', 'recipient_suppressed'],
        ['kept@example.com', 'delivered', null],
      ]),
    );
    expect(sunk(marketing.id).flatMap((mail) => mail.rcptTo)).toEqual(['kept@example.com']);
    const events = await platform.db.query<{ type: string }>(
      `SELECT type FROM email.outbox WHERE payload::text LIKE $1 AND payload::text LIKE '%gone@example.com%'`,
      [`%${marketing.id}%`],
    );
    expect(events.rows.map((row) => row.type)).toContain('email.rejected');
    // non_transactional coverage: a receipt still goes.
    const receipt = await sendEmail(['gone@example.com'], 'transactional');
    expect((await emailSettled(receipt.id)).status).toBe('delivered');
    expect(sunk(receipt.id).flatMap((mail) => mail.rcptTo)).toEqual(['gone@example.com']);
  });

  it('email: coverage all stops transactional mail too; a later grant and a delete let mail through again', async () => {
    const all = await bird.preferences.create({
      channel: 'email',
      handle: 'all@example.com',
      status: 'revoked',
      coverage: 'all',
    });
    await projected('email', acme.workspace.id, all);
    const stopped = await sendEmail(['all@example.com'], 'transactional');
    expect((await emailSettled(stopped.id)).status).toBe('rejected');
    expect(sunk(stopped.id)).toHaveLength(0);
    const deleted = await bird.preferences.delete(all.preference!.id);
    await projected('email', acme.workspace.id, deleted);
    const afterDelete = await sendEmail(['all@example.com'], 'marketing');
    expect((await emailSettled(afterDelete.id)).status).toBe('delivered');

    const revoke = await bird.preferences.create({
      channel: 'email',
      handle: 'back@example.com',
      status: 'revoked',
    });
    await projected('email', acme.workspace.id, revoke);
    const grant = await bird.preferences.create({
      channel: 'email',
      handle: 'back@example.com',
      status: 'granted',
      consented_at: later(revoke.preference!.effective_at),
    });
    expect(grant.applied).toBe(true);
    await projected('email', acme.workspace.id, grant);
    const welcome = await sendEmail(['back@example.com'], 'marketing');
    expect((await emailSettled(welcome.id)).status).toBe('delivered');
    expect(sunk(welcome.id).flatMap((mail) => mail.rcptTo)).toEqual(['back@example.com']);
  });

  it("email: another workspace's revocation has no effect", async () => {
    const elsewhere = await otherBird.preferences.create({
      channel: 'email',
      handle: 'shared@example.com',
      status: 'revoked',
      coverage: 'all',
    });
    await projected('email', other.workspace.id, elsewhere);
    const message = await sendEmail(['shared@example.com'], 'marketing');
    expect((await emailSettled(message.id)).status).toBe('delivered');
  });

  it('SMS: channel-wide and sender-scoped revocations are rejected recipient_opted_out and never reach the SMSC', async () => {
    const channelWide = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612340101',
      status: 'revoked',
    });
    const senderScoped = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612340102',
      status: 'revoked',
      sender_scope: 'Acme',
      coverage: 'all',
    });
    await projected('sms_whatsapp', acme.workspace.id, channelWide);
    await projected('sms_whatsapp', acme.workspace.id, senderScoped);
    const promo = { text: 'Spring sale', category: 'marketing' as const };
    // A single send (the group-commit path) and a batch (the transactional path).
    const single = await bird.sms.send({
      to: '+31612340101',
      from: 'Acme',
      ...promo,
    });
    const batch = await bird.sms.sendBatch({
      messages: [
        { to: '+31612340102', from: 'Acme', ...promo },
        { to: '+31612340102', from: OUR_NUMBER, ...promo },
        { to: '+31612340101', from: 'AcmeOtp', text: 'Code 123456', category: 'authentication' },
      ],
    });
    const [scoped, otherSender, otp] = batch.data;
    for (const stopped of [single, scoped]) {
      expect(stopped.status).toBe('rejected');
      expect(stopped.last_error).toMatchObject({ code: 'recipient_opted_out' });
      expect((await bird.sms.get(stopped.id)).status).toBe('rejected');
    }
    // The sender-scoped statement leaves other senders; non_transactional leaves authentication.
    expect(otherSender.status).toBe('accepted');
    expect(otp.status).toBe('accepted');
    await smsSent(otherSender.id);
    await smsSent(otp.id);
    expect(submittedTo('+31612340102').map((submit) => submit.source.addr)).toEqual([
      OUR_NUMBER.slice(1),
    ]);
    expect(submittedTo('+31612340101').map((submit) => submit.source.addr)).toEqual(['AcmeOtp']);
    const jobs = await platform.db.query(
      `SELECT 1 FROM sms_whatsapp.jobs WHERE payload->>'message_id' = ANY($1::text[])`,
      [[single.id, scoped.id]],
    );
    expect(jobs.rowCount).toBe(0);
  });

  it('SMS: a later grant and a delete let sends through again; another workspace has no effect', async () => {
    const revoke = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612340103',
      status: 'revoked',
    });
    const scoped = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612340104',
      status: 'revoked',
      sender_scope: 'Acme',
    });
    await projected('sms_whatsapp', acme.workspace.id, revoke);
    await projected('sms_whatsapp', acme.workspace.id, scoped);
    const promo = { from: 'Acme', text: 'Spring sale', category: 'marketing' as const };
    expect((await bird.sms.send({ to: '+31612340103', ...promo })).status).toBe('rejected');
    expect((await bird.sms.send({ to: '+31612340104', ...promo })).status).toBe('rejected');
    const grant = await bird.preferences.create({
      channel: 'sms',
      handle: '+31612340103',
      status: 'granted',
      consented_at: later(revoke.preference!.effective_at),
    });
    const deleted = await bird.preferences.delete(scoped.preference!.id);
    await projected('sms_whatsapp', acme.workspace.id, grant);
    await projected('sms_whatsapp', acme.workspace.id, deleted);
    for (const to of ['+31612340103', '+31612340104']) {
      const sent = await bird.sms.send({ to, ...promo });
      expect(sent.status).toBe('accepted');
      await smsSent(sent.id);
      expect(submittedTo(to)).toHaveLength(1);
    }
    const elsewhere = await otherBird.preferences.create({
      channel: 'sms',
      handle: '+31612340105',
      status: 'revoked',
      coverage: 'all',
    });
    await projected('sms_whatsapp', other.workspace.id, elsewhere);
    const unaffected = await bird.sms.send({ to: '+31612340105', ...promo });
    expect(unaffected.status).toBe('accepted');
    await smsSent(unaffected.id);
  });

  it('WhatsApp: a revocation for the business account rejects marketing templates recipient_suppressed, nothing reaches Meta; utility and session messages go', async () => {
    const revoke = await bird.preferences.create({
      channel: 'whatsapp',
      handle: '+31655550101',
      status: 'revoked',
      sender_scope: whatsappSender.waba,
    });
    const all = await bird.preferences.create({
      channel: 'whatsapp',
      handle: '+31655550102',
      status: 'revoked',
      coverage: 'all',
    });
    await projected('sms_whatsapp', acme.workspace.id, revoke);
    await projected('sms_whatsapp', acme.workspace.id, all);
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'A-1' }] }];
    const send = (to: string, slug: string) =>
      bird.whatsapp.send({
        to,
        from: whatsappSender.phoneNumber,
        template: { slug, language: 'en', components },
      }) as Promise<WhatsAppMessage>;
    const promo = await send('+31655550101', 'spring_sale');
    const receipt = await send('+31655550102', 'order_update');
    for (const stopped of [promo, receipt]) {
      expect(stopped.status).toBe('rejected');
      expect(stopped.last_error).toMatchObject({ code: 'recipient_suppressed' });
    }
    const update = await send('+31655550101', 'order_update');
    await setServiceWindow(platform.db, acme.workspace.id, whatsappSender, '+31655550101');
    const reply = await bird.whatsapp.send({
      to: '+31655550101',
      from: whatsappSender.phoneNumber,
      text: { body: 'Your parcel is on its way' },
    });
    for (const going of [update, reply])
      await eventually(
        () => bird.whatsapp.get(going.id),
        (message) => ['sent', 'delivered'].includes(message.status),
      );
    const sentTo = graph
      .sentFrom(whatsappSender.phoneNumberId)
      .map((sent) => [(sent.body as { to: string }).to.replace(/\D/g, ''), sent.body.type]);
    expect(sentTo).toEqual([
      ['31655550101', 'template'],
      ['31655550101', 'text'],
    ]);
    expect((await bird.whatsapp.get(promo.id)).status).toBe('rejected');
  });

  it('WhatsApp: a send addressed by business-scoped user id meets the revocation of the number that id was seen with', async () => {
    const phone = '+31655550105';
    const bsuid = 'NL.7302518846132509';
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'A-3' }] }];
    const first = await bird.whatsapp.send({
      to: phone,
      from: whatsappSender.phoneNumber,
      template: { slug: 'order_update', language: 'en', components },
    });
    // The person wrote in, and Meta's webhook named them by both (as an inbound row holds it).
    await copyWhatsApp(first.id, {
      direction: 'inbound',
      status: 'received',
      contact_bsuid: bsuid,
      provider_message_id: null,
    });
    const revoke = await bird.preferences.create({
      channel: 'whatsapp',
      handle: phone,
      status: 'revoked',
      coverage: 'all',
    });
    await projected('sms_whatsapp', acme.workspace.id, revoke);
    const byId = await bird.whatsapp.send({
      to: bsuid,
      from: whatsappSender.phoneNumber,
      template: { slug: 'order_update', language: 'en', components },
    });
    expect(byId).toMatchObject({
      status: 'rejected',
      last_error: { code: 'recipient_suppressed' },
    });
  });

  it('WhatsApp: a revocation that comes while a message waits for Meta rejects it before dispatch', async () => {
    const to = '+31655550104';
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'A-2' }] }];
    const first = await bird.whatsapp.send({
      to,
      from: whatsappSender.phoneNumber,
      template: { slug: 'order_update', language: 'en', components },
    });
    await eventually(
      () => bird.whatsapp.get(first.id),
      (message) => ['sent', 'delivered'].includes(message.status),
    );
    // The same message accepted again, its dispatch job waiting, and the recipient's revoke
    // projected before the job runs.
    const waiting = await copyWhatsApp(first.id, {
      status: 'accepted',
      sent_at: null,
      delivered_at: null,
      read_at: null,
      provider_message_id: null,
    });
    const revoke = await bird.preferences.create({
      channel: 'whatsapp',
      handle: to,
      status: 'revoked',
      coverage: 'all',
    });
    await projected('sms_whatsapp', acme.workspace.id, revoke);
    const graphSends = () => graph.sentFrom(whatsappSender.phoneNumberId).length;
    const before = graphSends();
    await platform.db.query(
      `INSERT INTO sms_whatsapp.jobs (queue, payload) VALUES ('whatsapp.dispatch',
         jsonb_build_object('message_id', $1::text, 'graph', jsonb_build_object(
           'messaging_product', 'whatsapp', 'to', $2::text, 'type', 'text',
           'text', jsonb_build_object('body', 'After the revoke'))))`,
      [waiting, to.slice(1)],
    );
    await platform.db.query(`NOTIFY sms_whatsapp_jobs, 'whatsapp.dispatch'`);
    const stopped = await eventually(
      () => bird.whatsapp.get(waiting),
      (message) => message.status !== 'accepted',
    );
    expect(stopped).toMatchObject({
      status: 'rejected',
      last_error: { code: 'recipient_suppressed' },
    });
    expect(graphSends()).toBe(before);
  });
});
