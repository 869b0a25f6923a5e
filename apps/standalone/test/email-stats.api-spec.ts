import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BirdClient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  freePort,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import fc from 'fast-check';
import { eventually, publishTemplate } from './email-broadcasts.fixtures';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';
const FINAL = ['delivered', 'bounced', 'rejected', 'partial_failure', 'complained', 'canceled'];
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Email stats with the official SDK, against sends delivered here into a real SMTP sink and
 * engagement through the public tracking and unsubscribe routes: the figures come through the outbox, the bus and
 * the stats consumer into the rollups.
 */
describe('email stats through the gateway', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let templateId: string;
  let broadcastId: string;
  const domain = 'news.acme.test';
  const from = `news@${domain}`;

  const get = (path: string, token = acme.api_key.secret) =>
    call<{ error?: { code: string; details?: Array<{ param: string }> } }>(
      platform.base,
      'GET',
      path,
      { token },
    );
  const settled = (client: BirdClient, id: string) =>
    eventually(
      () => client.email.get(id),
      (message) => FINAL.includes(message.status),
    );
  const verifyDomain = async (client: BirdClient, name: string) => {
    const registered = await client.domains.create({ domain: name });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect((await client.domains.verify(registered.id)).status).toBe('verified');
  };

  beforeAll(async () => {
    [sink, dns] = await Promise.all([startSmtpSink(), startDnsServer()]);
    // PUBLIC_URL defaults to the gateway on PORT: a fixed port makes the tracking links known.
    platform = await startTestPlatform({
      PORT: String(await freePort()),
      RATE_LIMITS: 'off',
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
      EMAIL_RETRY_BASE_SECONDS: '1',
    });
    acme = await createWorkspace(platform.base, platform.adminToken, { name: 'Acme' });
    other = await createWorkspace(platform.base, platform.adminToken, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base, maxRetries: 0 });
    otherBird = new BirdClient({
      apiKey: other.api_key.secret,
      baseUrl: platform.base,
      maxRetries: 0,
    });
    await verifyDomain(bird, domain);
    await verifyDomain(otherBird, 'news.other.test');
    sink.rule('gone@example.com', { code: 550, message: '5.1.1 No such user' });
    const spring = [{ name: 'campaign', value: 'spring' }];

    const tracked = await bird.email.send({
      from,
      to: ['ada@example.com'],
      subject: 'Spring',
      category: 'marketing',
      track_opens: true,
      track_clicks: true,
      tags: spring,
      html: '<html><body><p>Hello</p><a href="https://shop.acme.example/spring">Shop</a></body></html>',
      text: 'Hello',
    });
    const mixed = await bird.email.send({
      from,
      to: ['grace@example.com', 'gone@example.com'],
      subject: 'Receipt',
      category: 'transactional',
      tags: spring,
      text: 'Thanks',
    });
    templateId = (
      await publishTemplate(bird, {
        slug: 'welcome',
        subject: 'Welcome',
        html: '<p>Welcome</p>',
        text: 'Welcome',
      })
    ).templateId;
    const templated = await bird.email.send({
      from,
      to: ['linus@example.org'],
      template: { id: templateId },
    });
    const audience = await bird.audiences.create({ name: 'Newsletter' });
    await bird.contacts.batch({
      audience_ids: [audience.id],
      contacts: [{ email: 'bea@example.com', first_name: 'Bea' }],
    });
    const broadcast = await bird.broadcasts.create({
      send: true,
      from,
      audience_id: audience.id,
      template: { id: templateId },
    });
    broadcastId = broadcast.id;
    const theirs = await otherBird.email.send({
      from: 'news@news.other.test',
      to: ['ada@example.com'],
      subject: 'Theirs',
      text: 'Theirs',
    });
    for (const message of [tracked, mixed, templated]) await settled(bird, message.id);
    await settled(otherBird, theirs.id);
    await eventually(
      () => bird.broadcasts.get(broadcastId),
      (b) => b.status === 'sent',
    );

    // Two opens (one an inbox proxy's prefetch) and a click, through the public tracking routes.
    const raw = sink.messages.find((m) => m.messageId.startsWith(`${tracked.id}@`))?.raw;
    const html = raw?.toString('utf8').replace(/=\r\n/g, '').replace(/=3D/g, '=') ?? '';
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)?.[1] ?? '';
    const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(html)?.[1] ?? '';
    expect((await fetch(pixel, { headers: { 'user-agent': BROWSER } })).status).toBe(200);
    expect((await fetch(pixel, { headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);
    const clicked = await fetch(link, { redirect: 'manual', headers: { 'user-agent': BROWSER } });
    expect(clicked.status).toBe(302);
    // And a one-click unsubscribe through its List-Unsubscribe header.
    const headers =
      raw
        ?.toString('utf8')
        .split('\r\n\r\n')[0]
        .replace(/\r\n[ \t]+/g, ' ') ?? '';
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>$/m.exec(headers)?.[1] ?? '';
    const unsubscribed = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribed.status).toBeLessThan(300);

    // The rollups follow the events asynchronously: wait until every outcome is counted.
    const counted = await eventually(
      () => bird.email.stats.summary({ from: today(), to: today() }),
      (s) =>
        s.delivery.delivered + s.delivery.bounced === 5 &&
        s.engagement.opens === 2 &&
        s.engagement.clicks === 1 &&
        s.engagement.unsubscribes === 1,
    );
    expect(counted.delivery.delivered + counted.delivery.bounced).toBe(5);
  }, 120_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([sink?.stop(), dns?.stop()]);
  });

  it('counts sends, outcomes, engagement and rates of today, and compares with an empty previous period', async () => {
    const summary = await bird.email.stats.summary({
      from: today(),
      to: today(),
      compare: 'previous_period',
    });
    expect(summary.sends_accepted).toBe(4);
    expect(summary.delivery).toMatchObject({
      accepted: 5,
      processed: 5,
      deferred: 0,
      rejected: 0,
      delivered: 4,
      bounced: 1,
      complained: 0,
      oob_bounces: 0,
      effective_delivered: 4,
      all_bounces: 1,
      delivery_rate: 0.8,
      bounce_rate: 0.2,
      oob_rate: 0,
      complaint_rate: 0,
    });
    expect(summary.delivery.bounces).toMatchObject({ hard: 1, soft: 0, hard_rate: 1 });
    expect(summary.engagement).toEqual({
      opens: 2,
      opens_non_prefetched: 1,
      unique_opens: 1,
      unique_opens_non_prefetched: 1,
      clicks: 1,
      unique_clicks: 1,
      unsubscribes: 1,
      open_rate: 0.25,
      click_rate: 0.25,
      unsubscribe_rate: 0.25,
    });
    expect(summary.latency.total?.p50_ms).toEqual(expect.any(Number));
    expect(summary.period).toMatchObject({ from: today(), to: today() });
    expect(summary.period.data_as_of).toEqual(expect.any(String));
    expect(summary.comparison?.sends_accepted).toBe(0);
    expect(summary.comparison?.delivery.delivery_rate).toBeNull();
    expect(summary.comparison?.delta).toEqual({
      sends_accepted_pct_change: null,
      delivered_pct_change: null,
      bounced_pct_change: null,
      complained_pct_change: null,
      opened_pct_change: null,
      delivery_rate_pp: null,
      open_rate_pp: null,
      click_rate_pp: null,
      bounce_rate_pp: null,
      complaint_rate_pp: null,
      unsubscribe_rate_pp: null,
    });
  });

  it("never counts another workspace's sends", async () => {
    const theirs = await eventually(
      () => otherBird.email.stats.summary({ from: today(), to: today() }),
      (s) => s.delivery.delivered === 1,
    );
    expect(theirs).toMatchObject({ sends_accepted: 1, delivery: { accepted: 1, delivered: 1 } });
    expect((await otherBird.email.stats.byTag({})).data).toEqual([]);
    expect((await otherBird.email.stats.byBounceCode({})).data).toEqual([]);
  });

  it('breaks the bounce down by its SMTP code, and the sends by tag, template and broadcast', async () => {
    expect(await bird.email.stats.byBounceCode({})).toMatchObject({
      data: [
        {
          smtp_error_code: '550',
          bounced: 1,
          bounces: { hard: 1, soft: 0, admin: 0, block: 0, undetermined: 0 },
        },
      ],
      total: 1,
    });
    const tags = await bird.email.stats.byTag({ include_trend: true });
    expect(tags.total).toBe(1);
    expect(tags.data[0]).toMatchObject({
      tag: 'campaign:spring',
      delivery: { delivered: 2, bounced: 1, bounces: { hard: 1 } },
      engagement: { opens: 2, unique_clicks: 1 },
      trend: [{ bucket: today(), delivered: 2, bounced: 1 }],
    });
    expect(tags.data[0].delivery).not.toHaveProperty('accepted');
    const templates = await bird.email.stats.byTemplate({});
    expect(templates.data).toEqual([
      expect.objectContaining({
        template_id: templateId,
        delivery: expect.objectContaining({ delivered: 2 }),
      }),
    ]);
    const broadcasts = await bird.email.stats.byBroadcast({});
    expect(broadcasts.data).toEqual([
      expect.objectContaining({
        broadcast_id: broadcastId,
        delivery: expect.objectContaining({ delivered: 1 }),
      }),
    ]);
    const domains = await bird.email.stats.byRecipientDomain({ sort: 'delivered' });
    expect(domains.data.map((row) => [row.recipient_domain, row.delivery.delivered])).toEqual([
      ['example.com', 3],
      ['example.org', 1],
    ]);
    expect((await bird.email.stats.bySendingDomain({})).data[0]).toMatchObject({
      sending_domain: domain,
    });
    const categories = await bird.email.stats.byCategory({ sort: 'delivery_rate' });
    expect(categories.data.map((row) => row.category)).toEqual(['marketing', 'transactional']);
    const transactionalTags = await bird.email.stats.byTag({ category: 'transactional' });
    expect(transactionalTags.data[0].delivery).toMatchObject({ delivered: 1, bounced: 1 });
    expect((await bird.email.stats.byComplaintType({})).data).toEqual([]);
  });

  it('answers the dimensions the platform never learns truthfully: no rows, or the unknown country', async () => {
    for (const answer of await Promise.all([
      bird.email.stats.bySendingIp({}),
      bird.email.stats.byMailboxProviderRegion({}),
    ]))
      expect(answer).toMatchObject({ data: [], total: 0, period: { to: today() } });
    // The opens and clicks are real, their location unknown: one row of the unknown country.
    expect((await bird.email.stats.byLocation({ group_by: 'city' })).data).toEqual([
      {
        country: 'ZZ',
        region: null,
        city: null,
        engagement: {
          opens: 2,
          opens_non_prefetched: 1,
          unique_opens: 1,
          unique_opens_non_prefetched: 1,
          clicks: 1,
          unique_clicks: 1,
        },
      },
    ]);
    expect((await bird.email.stats.byLocation({ category: 'transactional' })).data).toEqual([]);
  });

  it('breaks opens and clicks down by the client, system and device their user agents name', async () => {
    // The real hits of the tracked send: an open and a click from a Linux desktop browser,
    // which names no mail client, then Apple Mail Privacy Protection's prefetch, which names
    // nothing but its client.
    const engagement = (counts: Partial<Record<string, number>>) => ({
      opens: 0,
      opens_non_prefetched: 0,
      unique_opens: 0,
      unique_opens_non_prefetched: 0,
      clicks: 0,
      unique_clicks: 0,
      ...counts,
    });
    const browser = engagement({
      opens: 1,
      opens_non_prefetched: 1,
      unique_opens: 1,
      unique_opens_non_prefetched: 1,
      clicks: 1,
      unique_clicks: 1,
    });
    const none = { email_client: null, os: null, device_type: null };
    expect(await bird.email.stats.byClient({ group_by: 'os' })).toMatchObject({
      data: [{ ...none, os: 'Linux', engagement: browser }],
      total: 1,
    });
    expect((await bird.email.stats.byClient({ group_by: 'device_type' })).data).toEqual([
      { ...none, device_type: 'desktop', engagement: browser },
    ]);
    // The default facet. The recipient opened in Apple Mail too: a unique open there as well,
    // the SDK's distinct recipients per row.
    expect((await bird.email.stats.byClient({})).data).toEqual([
      {
        ...none,
        email_client: 'Apple Mail',
        engagement: engagement({ opens: 1, unique_opens: 1 }),
      },
    ]);
    expect((await bird.email.stats.byClient({ category: 'transactional' })).data).toEqual([]);
    expect((await otherBird.email.stats.byClient({ group_by: 'os' })).data).toEqual([]);
  });

  it('answers zero-filled daily and hourly series, and filters by one dimension', async () => {
    const daily = await bird.email.stats.daily({ to: today() });
    expect(daily.data).toHaveLength(31);
    expect(daily.data[30]).toMatchObject({
      bucket: today(),
      sends_accepted: 4,
      delivery: { accepted: 5, delivered: 4 },
    });
    expect(daily.data[0]).toMatchObject({ sends_accepted: 0, latency: {} });
    const hourly = await bird.email.stats.hourly({});
    expect(hourly.period.grain).toBe('hour');
    expect(hourly.data).toHaveLength(169);
    expect(hourly.data.reduce((sum, point) => sum + point.delivery.delivered, 0)).toBe(4);
    const tagged = await bird.email.stats.summary({ tag: 'campaign:spring' });
    expect(tagged.delivery).toMatchObject({ accepted: 3, delivered: 2 });
    const anyValue = await bird.email.stats.summary({ tag: 'campaign' });
    expect(anyValue.delivery).toEqual(tagged.delivery);
    const toDomain = async (recipient_domain: string) =>
      (await bird.email.stats.summary({ recipient_domain })).sends_accepted;
    expect([await toDomain('Example.com'), await toDomain('example.org')]).toEqual([3, 1]);
    const template = await bird.email.stats.summary({ template: templateId });
    expect(template.sends_accepted).toBe(2);
    const byIp = await bird.email.stats.summary({ sending_ip: '192.0.2.1' });
    expect(byIp.delivery.delivered).toBe(0);
  });

  it('attributes a late delivery to the send hour, and shifts that day across midnight with timezone', async () => {
    // A message accepted at 23:30 UTC on 10 March, written with its events through the
    // service's outbox: the relay and the stats consumer fold them like any other.
    const id = 'em_01backdated0000000000000000';
    const recipientId = 'rcp_01backdated000000000000000';
    await platform.db.query(
      `INSERT INTO email.messages (id, workspace_id, from_email, sender_domain, onboarding,
         to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category, status, tags,
         headers, attachments, track_opens, track_clicks, created_at)
       VALUES ($1, $2, $3, $4, false, '["late@example.net"]', '[]', '[]', '[]', 'Late',
         'transactional', 'delivered', '[]', '{}', '[]', false, false, '2026-03-10T23:30:00Z')`,
      [id, acme.workspace.id, from, domain],
    );
    await platform.db.query(
      `INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, allowed,
         status, processed_at, delivered_at)
       VALUES ($1, $2, $3, 0, 'to', 'late@example.net', true, 'delivered',
         '2026-03-10T23:30:01Z', '2026-03-12T08:00:00Z')`,
      [recipientId, id, acme.workspace.id],
    );
    const events = [
      ['email.accepted', '2026-03-10T23:30:00Z'],
      ['email.processed', '2026-03-10T23:30:01Z'],
      ['email.delivered', '2026-03-12T08:00:00Z'],
    ];
    for (const [type, at] of events)
      await platform.db.query(
        `INSERT INTO email.outbox (id, type, workspace_id, payload)
         VALUES ($1, $2, $3, jsonb_build_object('type', $2::text, 'timestamp', $4::text,
           'data', jsonb_build_object('email_id', $5::text, 'recipient_id', $6::text)))`,
        [`ev_backdated_${type}`, type, acme.workspace.id, at, id, recipientId],
      );
    await platform.db.query(
      `INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at)
       SELECT 'ev_backdated_' || type, $1, $2, $3, type, at::timestamptz
       FROM unnest($4::text[], $5::text[]) AS x (type, at)`,
      [id, acme.workspace.id, recipientId, events.map(([t]) => t), events.map(([, at]) => at)],
    );
    await platform.db.query(`NOTIFY email_outbox`);
    const utc = await eventually(
      () => bird.email.stats.daily({ from: '2026-03-10', to: '2026-03-12' }),
      (s) => s.data[0].delivery.delivered === 1,
    );
    expect(utc.data.map((p) => [p.bucket, p.sends_accepted, p.delivery.delivered])).toEqual([
      ['2026-03-10', 1, 1],
      ['2026-03-11', 0, 0],
      ['2026-03-12', 0, 0],
    ]);
    expect(utc.data[0].latency.total?.p50_ms).toBeGreaterThan(30 * 3_600_000);
    // The delivery again (a second receipt, another event id) and a late open: the open counts
    // in the send day, the delivery still once.
    const again = [
      ['ev_backdated_again', 'email.delivered', '2026-03-12T09:00:00Z'],
      ['ev_backdated_open', 'email.opened', '2026-03-20T10:00:00Z'],
    ];
    for (const [eventId, type, at] of again)
      await platform.db.query(
        `INSERT INTO email.outbox (id, type, workspace_id, payload)
         VALUES ($1, $2, $3, jsonb_build_object('type', $2::text, 'timestamp', $4::text,
           'data', jsonb_build_object('email_id', $5::text, 'recipient_id', $6::text)))`,
        [eventId, type, acme.workspace.id, at, id, recipientId],
      );
    await platform.db.query(
      `INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at)
       SELECT id, $1, $2, $3, type, at::timestamptz FROM unnest($4::text[], $5::text[], $6::text[])
         AS x (id, type, at)`,
      [id, acme.workspace.id, recipientId, ...[0, 1, 2].map((i) => again.map((e) => e[i]))],
    );
    await platform.db.query(`NOTIFY email_outbox`);
    const opened = await eventually(
      () => bird.email.stats.daily({ from: '2026-03-10', to: '2026-03-10' }),
      (s) => s.data[0].engagement.opens === 1,
    );
    expect(opened.data[0]).toMatchObject({
      delivery: { delivered: 1 },
      engagement: { opens: 1, unique_opens: 1, unique_opens_non_prefetched: 1 },
    });
    const amsterdam = await bird.email.stats.daily({
      from: '2026-03-10',
      to: '2026-03-12',
      timezone: 'Europe/Amsterdam',
    });
    expect(amsterdam.data.map((p) => [p.bucket, p.delivery.delivered])).toEqual([
      ['2026-03-10', 0],
      ['2026-03-11', 1],
      ['2026-03-12', 0],
    ]);
  });

  it('counts each of many alike events folded in one batch, and each delivery latency', async () => {
    // Two recipients of one message sent on 2 April; in one outbox batch: both delivered at the
    // same instant (equal latencies), three opens (two by the first), alike in every dimension.
    const id = 'em_01alikeevents0000000000000';
    const recipients = ['rcp_01alikeevents00000000000a', 'rcp_01alikeevents00000000000b'];
    await platform.db.query(
      `INSERT INTO email.messages (id, workspace_id, from_email, sender_domain, onboarding,
         to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category, status, tags,
         headers, attachments, track_opens, track_clicks, created_at)
       VALUES ($1, $2, $3, $4, false, '["a@alike.example", "b@alike.example"]', '[]', '[]',
         '[]', 'Alike', 'marketing', 'delivered', '[]', '{}', '[]', true, false,
         '2026-04-02T10:00:00Z')`,
      [id, acme.workspace.id, from, domain],
    );
    await platform.db.query(
      `INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, allowed,
         status, processed_at, delivered_at)
       SELECT r.id, $1, $2, r.position, 'to', r.email, true, 'delivered',
         '2026-04-02T10:00:01Z', '2026-04-02T10:00:05Z'
       FROM unnest($3::text[], $4::int[], $5::text[]) AS r (id, position, email)`,
      [id, acme.workspace.id, recipients, [0, 1], ['a@alike.example', 'b@alike.example']],
    );
    const events = [
      ...recipients.map((r, i) => [`ev_alike_delivered_${i}`, 'email.delivered', r, '10:00:05']),
      ['ev_alike_open_0', 'email.opened', recipients[0], '11:00:00'],
      ['ev_alike_open_1', 'email.opened', recipients[0], '11:05:00'],
      ['ev_alike_open_2', 'email.opened', recipients[1], '11:00:00'],
    ];
    await platform.db.query(
      `INSERT INTO email.outbox (id, type, workspace_id, payload)
       SELECT x.id, x.type, $1, jsonb_build_object('type', x.type, 'timestamp',
         '2026-04-02T' || x.at || 'Z', 'data', jsonb_build_object('email_id', $2::text,
         'recipient_id', x.recipient_id))
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS x (id, type, recipient_id, at)`,
      [acme.workspace.id, id, ...[0, 1, 2, 3].map((i) => events.map((e) => e[i]))],
    );
    // And on the timeline, as the service writes them (the rebuild below folds it).
    await platform.db.query(
      `INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at)
       SELECT x.id, $1, $2, x.recipient_id, x.type, ('2026-04-02T' || x.at || 'Z')::timestamptz
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS x (id, type, recipient_id, at)`,
      [id, acme.workspace.id, ...[0, 1, 2, 3].map((i) => events.map((e) => e[i]))],
    );
    await platform.db.query(`NOTIFY email_outbox`);
    const day = await eventually(
      () => bird.email.stats.daily({ from: '2026-04-02', to: '2026-04-02' }),
      (s) => s.data[0].engagement.opens === 3,
    );
    expect(day.data[0]).toMatchObject({
      delivery: { delivered: 2 },
      engagement: { opens: 3, opens_non_prefetched: 3, unique_opens: 2 },
    });
    expect(day.data[0].latency.total?.p50_ms).toBeGreaterThanOrEqual(4_500);
  });

  it("groups the delivery stage on by the recipient domain's mailbox provider, in the SDK's rows", async () => {
    // One marketing message sent on 5 May to six recipients, its events through the outbox.
    const id = 'em_01mailboxproviders000000000';
    const to = [
      ['a@gmail.com', 'email.delivered'],
      ['b@GoogleMail.com', 'email.delivered'],
      ['c@hotmail.co.uk', 'email.delivered'],
      ['d@yahoo.com', 'email.bounced'],
      ['e@live.example.com', 'email.delivered'],
      ['f@outlook.com', 'email.processed'],
    ];
    const recipients = to.map((_, i) => `rcp_01mailboxproviders0000000${i}`);
    await platform.db.query(
      `INSERT INTO email.messages (id, workspace_id, from_email, sender_domain, onboarding,
         to_addresses, cc_addresses, bcc_addresses, reply_to, subject, category, status, tags,
         headers, attachments, track_opens, track_clicks, created_at)
       VALUES ($1, $2, $3, $4, false, $5, '[]', '[]', '[]', 'Providers', 'marketing',
         'delivered', '[]', '{}', '[]', true, false, '2026-05-05T10:00:00Z')`,
      [id, acme.workspace.id, from, domain, JSON.stringify(to.map(([address]) => address))],
    );
    await platform.db.query(
      `INSERT INTO email.recipients (id, message_id, workspace_id, position, role, email, allowed,
         status, processed_at)
       SELECT r.id, $1, $2, r.position, 'to', r.email, true, 'processed', '2026-05-05T10:00:01Z'
       FROM unnest($3::text[], $4::int[], $5::text[]) AS r (id, position, email)`,
      [id, acme.workspace.id, recipients, to.map((_, i) => i), to.map(([address]) => address)],
    );
    const events = [
      ...to.map(([, type], i) => [`ev_providers_${i}`, type, recipients[i], '10:00:03']),
      ['ev_providers_open', 'email.opened', recipients[0], '11:00:00'],
    ];
    const detail = (type: string) =>
      type === 'email.bounced' ? { bounce_type: 'hard', bounce_code: '550' } : {};
    await platform.db.query(
      `INSERT INTO email.outbox (id, type, workspace_id, payload)
       SELECT x.id, x.type, $1, jsonb_build_object('type', x.type, 'timestamp',
         '2026-05-05T' || x.at || 'Z', 'data', jsonb_build_object('email_id', $2::text,
         'recipient_id', x.recipient_id) || x.detail)
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])
         AS x (id, type, recipient_id, at, detail)`,
      [
        acme.workspace.id,
        id,
        ...[0, 1, 2, 3].map((i) => events.map((e) => e[i])),
        events.map((e) => JSON.stringify(detail(e[1]))),
      ],
    );
    await platform.db.query(
      `INSERT INTO email.events (id, message_id, workspace_id, recipient_id, type, occurred_at,
         detail)
       SELECT x.id, $1, $2, x.recipient_id, x.type, ('2026-05-05T' || x.at || 'Z')::timestamptz,
         x.detail
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[])
         AS x (id, type, recipient_id, at, detail)`,
      [
        id,
        acme.workspace.id,
        ...[0, 1, 2, 3].map((i) => events.map((e) => e[i])),
        events.map((e) => JSON.stringify(detail(e[1]))),
      ],
    );
    await platform.db.query(`NOTIFY email_outbox`);
    const window = { from: '2026-05-05', to: '2026-05-05' };
    const providers = await eventually(
      () => bird.email.stats.byMailboxProvider(window),
      (answer) => answer.total === 3,
    );
    // Ranked by delivered; the company domain is no provider's, the processed-only one not yet.
    expect(providers.data.map((row) => row.mailbox_provider)).toEqual([
      'gmail',
      'microsoft',
      'yahoo',
    ]);
    const [gmail, microsoft, yahoo] = providers.data;
    expect(gmail.delivery).toEqual({
      delivered: 2,
      bounced: 0,
      complained: 0,
      deferred: 0,
      bounces: expect.objectContaining({ hard: 0, hard_rate: null }),
      delivery_rate: 1,
      bounce_rate: 0,
      complaint_rate: 0,
    });
    expect(gmail.engagement).toMatchObject({ opens: 1, unique_opens: 1, open_rate: 0.5 });
    expect(Object.keys(gmail.latency).sort()).toEqual(['delivery', 'total']);
    expect(gmail.latency.delivery.p50_ms).toBeGreaterThanOrEqual(1_500);
    expect(microsoft.delivery).toMatchObject({ delivered: 1, bounced: 0 });
    expect(yahoo.delivery).toMatchObject({
      delivered: 0,
      bounced: 1,
      bounces: expect.objectContaining({ hard: 1, hard_rate: 1 }),
      bounce_rate: 1,
    });
    expect(yahoo.latency).toEqual({
      delivery: { p50_ms: null, p95_ms: null, p99_ms: null },
      total: { p50_ms: null, p95_ms: null, p99_ms: null },
    });
    const byBounces = await bird.email.stats.byMailboxProvider({ ...window, sort: 'bounced' });
    expect(byBounces.data[0].mailbox_provider).toBe('yahoo');
    const transactional = await bird.email.stats.byMailboxProvider({
      ...window,
      category: 'transactional',
    });
    expect(transactional).toMatchObject({ data: [], total: 0 });
    const marketing = await bird.email.stats.byMailboxProvider({
      ...window,
      category: 'marketing',
      limit: 1,
      include_trend: true,
    });
    expect(marketing).toMatchObject({ total: 3, data: [{ mailbox_provider: 'gmail' }] });
    expect(marketing.data[0].trend).toEqual([expect.objectContaining({ delivered: 2 })]);
    expect((await otherBird.email.stats.byMailboxProvider(window)).data).toEqual([]);
  });

  it('rebuilds the rollups from the stored timeline, showing progress, to the same figures', async () => {
    const asked = [
      () => bird.email.stats.summary({ from: today(), to: today() }),
      () => bird.email.stats.daily({ from: '2026-03-10', to: '2026-03-12' }),
      () => bird.email.stats.daily({ from: '2026-04-02', to: '2026-04-02' }),
      () => bird.email.stats.byTag({}),
      () => bird.email.stats.byBounceCode({}),
      () => bird.email.stats.byTemplate({}),
      () => bird.email.stats.byMailboxProvider({ from: '2026-05-05', to: '2026-05-05' }),
      () => bird.email.stats.byClient({ group_by: 'os' }),
    ];
    const before = await Promise.all(asked.map((ask) => ask()));
    // As after a restore that lost them.
    await platform.db.query('DELETE FROM email.email_stats_rollups');
    await platform.db.query('DELETE FROM email.email_stats_daily_rollups');
    const output = execFileSync(
      process.execPath,
      [join(__dirname, '../../../tools/rebuild-stats.mjs'), '--channel', 'email', '--chunk', '5'],
      { env: { ...process.env, DATABASE_URL: platform.databaseUrl }, encoding: 'utf8' },
    );
    expect(output).toMatch(/events read \(\d+%\)/);
    expect(output).toMatch(/done, \d+ events folded/);
    const after = await Promise.all(asked.map((ask) => ask()));
    const figures = (answers: unknown[]) =>
      JSON.stringify(answers, (key, value: unknown) => (key === 'data_as_of' ? undefined : value));
    expect(figures(after)).toBe(figures(before));
  });

  it('refuses every broken rule with 422 naming the parameter', async () => {
    const cases: Array<[string, string, string]> = [
      ['/v1/email/stats/summary?from=2026-05-01&to=2026-05-02T00:00:00Z', 'E01150', 'to'],
      ['/v1/email/stats/daily?from=2025-01-01&to=2026-01-01', 'E01151', 'from'],
      [
        '/v1/email/stats/hourly?from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z',
        'E01151',
        'from',
      ],
      ['/v1/email/stats/daily?from=2026-05-02&to=2026-05-01', 'E01152', 'from'],
      ['/v1/email/stats/summary?category=marketing&tag=campaign:spring', 'E01153', 'tag'],
      ['/v1/email/stats/tags?include_trend=true&limit=51', 'E01154', 'limit'],
      [
        '/v1/email/stats/templates?include_trend=true&from=2026-01-01&to=2026-05-01',
        'E01154',
        'from',
      ],
      [
        '/v1/email/stats/summary?from=2026-05-01T00:00:00%2B05:45&timezone=Asia/Kathmandu',
        'E01155',
        'from',
      ],
      ['/v1/email/stats/summary?timezone=Mars/Olympus', 'E01001', 'timezone'],
      ['/v1/email/stats/recipient-domains?limit=201', 'E01001', 'limit'],
      ['/v1/email/stats/bounce-codes?sort=delivered', 'E01001', 'sort'],
      ['/v1/email/stats/locations?group_by=street', 'E01001', 'group_by'],
      ['/v1/email/stats/daily?from=2026-05-01T00:00:00Z', 'E01001', 'from'],
    ];
    for (const [path, code, param] of cases) {
      const response = await get(path);
      expect([path, response.status, response.body.error?.code]).toEqual([path, 422, code]);
      expect(response.body.error?.details?.map((d) => d.param)).toContain(param);
    }
  });

  it('answers generated bad queries with 4xx, never 500', async () => {
    const paths = [
      'summary',
      'daily',
      'hourly',
      'tags',
      'bounce-codes',
      'clients',
      'mailbox-providers',
      'broadcasts',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(
          fc.constantFrom('from', 'to', 'timezone', 'sort', 'limit', 'tag', 'group_by', 'category'),
          fc.string(),
        ),
        async (path, query) => {
          const response = await get(
            `/v1/email/stats/${path}?${new URLSearchParams(query).toString()}`,
          );
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 40 },
    );
  });
});
