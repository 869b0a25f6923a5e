import { BirdClient } from '@messagebird/sdk';
import type { EmailBroadcast, EmailEvent, EmailRecipient } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import fc from 'fast-check';
import {
  draftToNewAudience,
  eventually,
  publishTemplate,
  startAllowancePlatform,
} from './email-broadcasts.fixtures';
import type { AllowancePlatform } from './email-broadcasts.fixtures';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Envelope {
  error: { code: string; type: string; details?: Array<{ param: string; message: string }> };
}

/**
 * Email broadcasts end to end on the embedded default: the official SDK against the gateway,
 * audiences in the workspace-objects service, delivery into a real SMTP sink.
 */
describe('email broadcasts through the gateway', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  let template: { templateId: string; versionId: string };
  let audienceId: string;
  const domain = 'news.acme.test';
  const from = `news@${domain}`;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });
  const errorOf = (body: unknown) => (body as Envelope).error;
  const mailsTo = (address: string) =>
    sink.messages.filter((mail) => mail.rcptTo.includes(address));
  const settled = (id: string, statuses = ['sent', 'canceled', 'failed']) =>
    eventually(
      () => bird.broadcasts.get(id),
      (broadcast) => statuses.includes(broadcast.status),
    );
  /** Every broadcast of the workspace, walked page by page with the SDK's iterator. */
  const allIds = async () => {
    const ids: string[] = [];
    for await (const broadcast of bird.broadcasts.list({ limit: 10 })) ids.push(broadcast.id);
    return ids;
  };
  const rejects = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (err) {
      return err as { statusCode: number; code: string };
    }
    throw new Error('expected the call to fail');
  };

  beforeAll(async () => {
    [sink, dns] = await Promise.all([startSmtpSink(), startDnsServer()]);
    platform = await startTestPlatform({
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
    const registered = await bird.domains.create({ domain });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect((await bird.domains.verify(registered.id)).status).toBe('verified');
    template = await publishTemplate(bird, {
      slug: 'newsletter',
      subject: 'Hello {{ bird.contact.first_name }}',
      html: '<p>Dear {{ bird.contact.first_name }}, your plan is {{ bird.contact.plan }}.</p>',
      text: 'Dear {{ bird.contact.first_name }}, your plan is {{ bird.contact.plan }}.',
    });
    await bird.contactProperties.create({ key: 'plan', type: 'string' });
    const audience = await bird.audiences.create({ name: 'Newsletter' });
    audienceId = audience.id;
    const result = await bird.contacts.batch({
      audience_ids: [audienceId],
      contacts: [
        { email: 'ada@example.com', first_name: 'Ada', data: { plan: 'team' } },
        { email: 'grace@example.com', first_name: 'Grace', data: { plan: 'free' } },
        { email: 'linus@example.com', first_name: 'Linus', data: { plan: 'pro' } },
        { email: 'blocked@example.com', first_name: 'Blocked' },
        { phone_number: '+31612345678', first_name: 'NoMail' },
      ],
    });
    expect(result.data.map((row) => row.status)).toEqual(Array(5).fill('created'));
    // One unsubscribed (a preference revoke: marketing only), one suppressed for all mail.
    const revoke = await bird.preferences.create({
      channel: 'email',
      handle: 'linus@example.com',
      status: 'revoked',
    });
    await eventually(
      async () =>
        (
          await platform.db.query(
            'SELECT 1 FROM email.preference_states WHERE workspace_id = $1 AND transition_id = $2',
            [acme.workspace.id, revoke.transition_id],
          )
        ).rowCount,
      (found) => found === 1,
    );
    expect(
      (await api('POST', '/v1/email/suppressions', { email: 'blocked@example.com' })).status,
    ).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await platform?.stop();
    await Promise.all([sink?.stop(), dns?.stop()]);
  });

  describe('drafts', () => {
    it('creates a draft by default, dropping the List-Unsubscribe headers, and reads it back', async () => {
      const draft = await bird.broadcasts.create({
        from: `Acme <${from}>`,
        audience_id: audienceId,
        template: { id: template.templateId },
        headers: {
          'X-Campaign': 'spring',
          'List-Unsubscribe': '<mailto:x@example.com>',
          'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
        },
        tags: [{ name: 'campaign', value: 'spring' }],
        metadata: { owner: 'marketing' },
      });
      expect(draft).toMatchObject({
        id: expect.stringMatching(/^eb_[0-9a-z]{26}$/),
        status: 'draft',
        category: 'marketing',
        from: { email: from, name: 'Acme' },
        audience_id: audienceId,
        template: { id: template.templateId, version_id: null },
        headers: { 'X-Campaign': 'spring' },
        recipient_count: 0,
        sent_at: null,
        track_opens: false,
        track_clicks: false,
      });
      expect(draft).not.toHaveProperty('sent_count');
      const read = await bird.broadcasts.get(draft.id);
      expect(read).toMatchObject({
        id: draft.id,
        sent_count: 0,
        delivered_count: 0,
        unique_opens_non_prefetched: 0,
        html_bytes: expect.any(Number),
        text_bytes: expect.any(Number),
      });
      const listed = await bird.broadcasts.list({ status: ['draft'], tag: 'campaign:spring' });
      expect(listed.data.map((row) => row.id)).toContain(draft.id);
      expect(listed.data.find((row) => row.id === draft.id)).not.toHaveProperty('headers');
      const byName = await bird.broadcasts.list({ tag: 'campaign' });
      expect(byName.data.map((row) => row.id)).toContain(draft.id);
      expect((await bird.broadcasts.list({ tag: 'campaign:autumn' })).data).toEqual([]);
    });

    it('update replaces headers, tags and metadata, clears the template with null, and delete removes a draft', async () => {
      const draft = await bird.broadcasts.create({
        from,
        template: { id: template.templateId },
        headers: { 'X-One': '1' },
        tags: [{ name: 'a', value: '1' }],
        metadata: { a: 1 },
      });
      const updated = await bird.broadcasts.update(draft.id, {
        headers: { 'X-Two': '2' },
        tags: [{ name: 'b', value: '2' }],
        metadata: { b: 2 },
        template: null,
        category: 'transactional',
      });
      expect(updated).toMatchObject({
        headers: { 'X-Two': '2' },
        tags: [{ name: 'b', value: '2' }],
        metadata: { b: 2 },
        template: null,
        category: 'transactional',
      });
      await bird.broadcasts.delete(draft.id);
      expect((await rejects(bird.broadcasts.get(draft.id))).statusCode).toBe(404);
    });

    it('refuses unknown fields and bad values with 422 naming them, never saving anything', async () => {
      const before = await allIds();
      const unknown = await api('POST', '/v1/email/broadcasts', { subject: 'x', from });
      expect(unknown.status).toBe(422);
      expect(errorOf(unknown.body).details?.map((d) => d.param)).toContain('subject');
      const bad = await api('POST', '/v1/email/broadcasts', {
        from: 'not an address',
        tags: 'x',
        category: 'spam',
        headers: { 'X-Ok': 'a\r\nb' },
      });
      expect(bad.status).toBe(422);
      expect(errorOf(bad.body).details?.map((d) => d.param)).toEqual(
        expect.arrayContaining(['tags', 'category', 'headers.X-Ok']),
      );
      const scheduledDraft = await api('POST', '/v1/email/broadcasts', {
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect(scheduledDraft.status).toBe(422);
      expect(errorOf(scheduledDraft.body).code).toBe('E01134');
      const incomplete = await api('POST', '/v1/email/broadcasts', { send: true, from });
      expect(incomplete.status).toBe(422);
      expect(errorOf(incomplete.body).code).toBe('E01130');
      expect(errorOf(incomplete.body).details?.map((d) => d.param)).toEqual([
        'audience_id',
        'template',
      ]);
      const unverified = await api('POST', '/v1/email/broadcasts', {
        send: true,
        from: 'x@unknown.test',
        audience_id: audienceId,
        template: { id: template.templateId },
      });
      expect(errorOf(unverified.body).code).toBe('E01131');
      const unpublished = await api('POST', '/v1/email/broadcasts', {
        send: true,
        from,
        audience_id: audienceId,
        template: { id: 'emt_00000000000000000000000000' },
      });
      expect(errorOf(unpublished.body).code).toBe('E01132');
      const insisting = await publishTemplate(bird, {
        slug: 'names-its-language',
        subject: 'Hi',
        html: '<p>Hi</p>',
      });
      await bird.email.templates.update(insisting.templateId, {
        revision: (await bird.email.templates.get(insisting.templateId)).revision as number,
        language_source_required: true,
      });
      const languageless = await api('POST', '/v1/email/broadcasts', {
        send: true,
        from,
        audience_id: audienceId,
        template: { id: insisting.templateId },
      });
      expect(errorOf(languageless.body)).toMatchObject({
        code: 'E01132',
        details: [{ message: expect.stringContaining('language_source_required') }],
      });
      expect(await allIds()).toEqual(before);
    });

    it('lists newest first across pages, by repeatable status, tag, audience, q and creation window', async () => {
      const tags = [{ name: 'window', value: 'w' }];
      const created: EmailBroadcast[] = [];
      for (const scheduled of [false, false, true, false]) {
        created.push(
          await bird.broadcasts.create({
            from,
            audience_id: audienceId,
            template: { id: template.templateId },
            tags,
            ...(scheduled
              ? { send: true, scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }
              : {}),
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const [first, second, scheduled, last] = created;
      expect((await bird.broadcasts.cancel(scheduled.id)).status).toBe('canceling');
      await settled(scheduled.id);
      const ids = (page: { data: EmailBroadcast[] }) => page.data.map((row) => row.id);

      const walked: string[] = [];
      for await (const broadcast of bird.broadcasts.list({ tag: 'window:w', limit: 1 }))
        walked.push(broadcast.id);
      expect(walked).toEqual([last.id, scheduled.id, second.id, first.id]);
      const page = await bird.broadcasts.list({ tag: 'window', limit: 2 });
      expect(ids(page)).toEqual([last.id, scheduled.id]);
      expect(page.next_cursor).toEqual(expect.any(String));
      expect(page.data[0]).toMatchObject({
        status: 'draft',
        audience_id: audienceId,
        template: { id: template.templateId },
        tags,
        created_at: last.created_at,
      });
      const back = await bird.broadcasts.list({
        tag: 'window',
        limit: 2,
        ending_before: (
          await bird.broadcasts.list({
            tag: 'window',
            limit: 2,
            starting_after: page.next_cursor as string,
          })
        ).prev_cursor as string,
      });
      expect(ids(back)).toEqual(ids(page));

      expect(ids(await bird.broadcasts.list({ tag: 'window', status: ['canceled'] }))).toEqual([
        scheduled.id,
      ]);
      expect(
        ids(await bird.broadcasts.list({ tag: 'window', status: ['draft', 'canceled'] })),
      ).toEqual(walked);
      expect((await bird.broadcasts.list({ tag: 'window', status: ['sent'] })).data).toEqual([]);
      expect(ids(await bird.broadcasts.list({ tag: 'window', audience_id: audienceId }))).toEqual(
        walked,
      );
      expect(ids(await bird.broadcasts.list({ q: 'WINDOW', limit: 100 }))).toEqual(walked);
      // created_after is inclusive, created_before exclusive.
      const window = await bird.broadcasts.list({
        tag: 'window',
        created_after: second.created_at,
        created_before: last.created_at,
      });
      expect(ids(window)).toEqual([scheduled.id, second.id]);
      for (const draft of [first, second, last]) await bird.broadcasts.delete(draft.id);
    });

    it('answers generated bad bodies with a 4xx, never a 500', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(
              'from',
              'audience_id',
              'template',
              'reply_to',
              'headers',
              'tags',
              'metadata',
              'category',
              'send',
              'scheduled_at',
              'ip_pool_id',
              'track_opens',
            ),
            fc.anything(),
          ),
          async (body) => {
            const response = await api('POST', '/v1/email/broadcasts', body);
            expect(response.status).toBeLessThan(500);
            if (response.status === 201)
              await api('DELETE', `/v1/email/broadcasts/${(response.body as { id: string }).id}`);
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('sending', () => {
    it('counts the audience: total, addressable, sendable after suppressions and preferences', async () => {
      const draft = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: template.templateId },
      });
      expect(await bird.broadcasts.counts(draft.id)).toMatchObject({
        broadcast_id: draft.id,
        status: 'draft',
        total: 5,
        addressable: 4,
        sendable: 2,
      });
      await bird.broadcasts.update(draft.id, { category: 'transactional' });
      expect(await bird.broadcasts.counts(draft.id)).toMatchObject({
        total: 5,
        addressable: 4,
        sendable: 3,
      });
      expect(await bird.broadcasts.sendQuota(draft.id)).toEqual({
        recipients: 3,
        allowed: 3,
        limited_by: 'none',
      });
      const empty = await bird.broadcasts.create({ from });
      expect(errorOf((await api('GET', `/v1/email/broadcasts/${empty.id}/counts`)).body).code).toBe(
        'E01135',
      );
    });

    it('sends a marketing broadcast to each sendable contact exactly once, personalised, and counts it', async () => {
      const broadcast = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: template.templateId },
        send: true,
      });
      expect(broadcast.status).toBe('accepted');
      const sent = await settled(broadcast.id);
      expect(sent).toMatchObject({
        status: 'sent',
        recipient_count: 2,
        template: { id: template.templateId, version_id: template.versionId },
        started_at: expect.any(String),
        sent_at: expect.any(String),
      });
      await eventually(
        () => bird.broadcasts.get(broadcast.id),
        (b) => b.delivered_count === 2,
      );
      const ada = mailsTo('ada@example.com');
      expect(ada).toHaveLength(1);
      expect(ada[0].raw.toString()).toContain('Subject: Hello Ada');
      expect(ada[0].raw.toString()).toContain('your plan is team');
      expect(mailsTo('grace@example.com')).toHaveLength(1);
      expect(mailsTo('linus@example.com')).toHaveLength(0);
      expect(mailsTo('blocked@example.com')).toHaveLength(0);
      const recipients: EmailRecipient[] = [];
      for await (const recipient of bird.broadcasts.listRecipients(broadcast.id, { limit: 1 }))
        recipients.push(recipient);
      expect(recipients.map((r) => r.recipient).sort()).toEqual([
        'ada@example.com',
        'grace@example.com',
      ]);
      for (const recipient of recipients)
        expect(recipient).toMatchObject({
          id: expect.any(String),
          parent_id: expect.stringMatching(/^em_/),
          role: 'to',
          status: 'delivered',
          delivered_at: expect.any(String),
          open_count: 0,
          click_count: 0,
        });
      const one = await bird.broadcasts.listRecipients(broadcast.id, { to: 'ADA@example.com' });
      expect(one.data.map((r) => r.recipient)).toEqual(['ada@example.com']);
      expect(one.next_cursor).toBeNull();
      const events: EmailEvent[] = [];
      for await (const event of bird.broadcasts.listEvents(broadcast.id, { limit: 2 }))
        events.push(event);
      expect(events[0].type).toBe('email.accepted');
      const times = events.map((e) => e.occurred_at);
      expect([...times].sort()).toEqual(times);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(new Set(events.map((e) => e.recipient_id))).toEqual(
        new Set(recipients.map((r) => r.id)),
      );
      const delivered = await bird.broadcasts.listEvents(broadcast.id, { type: 'email.delivered' });
      expect(delivered.data.map((e) => e.type)).toEqual(['email.delivered', 'email.delivered']);
      expect(events.filter((e) => e.type === 'email.delivered').map((e) => e.id)).toEqual(
        delivered.data.map((e) => e.id),
      );
      expect(await bird.broadcasts.listClickedLinks(broadcast.id)).toEqual({ data: [], total: 0 });
      // Final: no edit, no delete, no second send; cancel has nothing left to stop.
      expect((await rejects(bird.broadcasts.update(broadcast.id, { tags: [] }))).statusCode).toBe(
        409,
      );
      expect((await rejects(bird.broadcasts.delete(broadcast.id))).statusCode).toBe(409);
      expect((await rejects(bird.broadcasts.send(broadcast.id))).statusCode).toBe(409);
      expect((await rejects(bird.broadcasts.cancel(broadcast.id))).statusCode).toBe(409);
    });

    it('sends a transactional broadcast to the unsubscribed contact too, never to one suppressed for all mail', async () => {
      const draft = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: template.templateId },
        category: 'transactional',
      });
      const accepted = await bird.broadcasts.send(draft.id);
      expect(accepted.status).toBe('accepted');
      await settled(draft.id);
      await eventually(
        () => Promise.resolve(mailsTo('linus@example.com').length),
        (n) => n === 1,
      );
      expect(mailsTo('blocked@example.com')).toHaveLength(0);
    });

    it('fills a property the contact holds no value for from its fallback_value, as the preview shows', async () => {
      await bird.contactProperties.create({
        key: 'tier',
        type: 'string',
        fallback_value: 'bronze',
      });
      const tiered = await publishTemplate(bird, {
        slug: 'tiered',
        subject: 'Your tier',
        html: '<p>Your tier is {{ bird.contact.tier }}.</p>',
        text: 'Your tier is {{ bird.contact.tier }}.',
      });
      const tierAudience = await bird.audiences.create({ name: 'Tiers' });
      await bird.contacts.batch({
        audience_ids: [tierAudience.id],
        contacts: [
          { email: 'gold@example.com', first_name: 'Gold', data: { tier: 'gold' } },
          { email: 'untiered@example.com', first_name: 'Untiered' },
        ],
      });
      const untiered = (await bird.contacts.list({ email: 'untiered@example.com' })).data[0];
      const preview = await api<{ text: string }>(
        'POST',
        `/v1/email/templates/${tiered.templateId}/preview`,
        { contact: untiered.id },
      );
      expect(preview.body.text).toBe('Your tier is bronze.');
      const broadcast = await bird.broadcasts.create({
        from,
        audience_id: tierAudience.id,
        template: { id: tiered.templateId },
        send: true,
      });
      expect((await settled(broadcast.id)).status).toBe('sent');
      await eventually(
        () => Promise.resolve(mailsTo('untiered@example.com').length),
        (n) => n === 1,
      );
      expect(mailsTo('untiered@example.com')[0].raw.toString()).toContain('Your tier is bronze.');
      expect(mailsTo('gold@example.com')[0].raw.toString()).toContain('Your tier is gold.');
    });

    it('renders an archived property empty, in a preview by contact and in the broadcast', async () => {
      const legacy = await bird.contactProperties.create({ key: 'legacy', type: 'string' });
      const template = await publishTemplate(bird, {
        slug: 'legacy',
        subject: 'Legacy',
        html: '<p>Legacy [{{ bird.contact.legacy }}].</p>',
        text: 'Legacy [{{ bird.contact.legacy }}].',
      });
      const legacyAudience = await bird.audiences.create({ name: 'Legacy' });
      await bird.contacts.batch({
        audience_ids: [legacyAudience.id],
        contacts: [{ email: 'legacy@example.com', data: { legacy: 'old-value' } }],
      });
      const contact = (await bird.contacts.list({ email: 'legacy@example.com' })).data[0];
      await bird.contactProperties.archive(legacy.id);
      const preview = await api<{ text: string }>(
        'POST',
        `/v1/email/templates/${template.templateId}/preview`,
        { contact: contact.id },
      );
      expect(preview.body.text).toBe('Legacy [].');
      const broadcast = await bird.broadcasts.create({
        from,
        audience_id: legacyAudience.id,
        template: { id: template.templateId },
        send: true,
      });
      expect((await settled(broadcast.id)).status).toBe('sent');
      await eventually(
        () => Promise.resolve(mailsTo('legacy@example.com').length),
        (n) => n === 1,
      );
      expect(mailsTo('legacy@example.com')[0].raw.toString()).toContain('Legacy [].');
    });

    it('fails content_invalid, sending nothing, when its template renders a NUL (no job retried forever)', async () => {
      const nul = await publishTemplate(bird, {
        slug: 'renders-nul',
        subject: 'Hello {{ bird.contact.first_name }}',
        html: '<p>a{{ "%00" | url_decode }}b</p>',
      });
      const before = sink.messages.length;
      const draft = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: nul.templateId },
      });
      await bird.broadcasts.send(draft.id);
      const failed = await settled(draft.id);
      expect(failed).toMatchObject({ status: 'failed', failure_reason: 'content_invalid' });
      expect(failed.failure_detail).toContain('NUL');
      expect(sink.messages.length).toBe(before);
    });

    it('refuses to send now to an audience nobody can receive (422 E01137), changing nothing', async () => {
      const lonely = await bird.audiences.create({ name: 'Only blocked' });
      const blocked = (await bird.contacts.list({ email: 'blocked@example.com' })).data[0];
      await bird.audiences.addContacts(lonely.id, { contact_ids: [blocked.id] });
      const draft = await bird.broadcasts.create({
        from,
        audience_id: lonely.id,
        template: { id: template.templateId },
      });
      const refused = await rejects(bird.broadcasts.send(draft.id));
      expect(refused).toMatchObject({ statusCode: 422, code: 'E01137' });
      // Scheduled too, as the SDK says: the request is refused, not the broadcast failed later.
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const refusedLater = await rejects(bird.broadcasts.send(draft.id, { scheduled_at: later }));
      expect(refusedLater).toMatchObject({ statusCode: 422, code: 'E01137' });
      const created = await rejects(
        bird.broadcasts.create({
          from,
          audience_id: lonely.id,
          template: { id: template.templateId },
          send: true,
          scheduled_at: later,
        }),
      );
      expect(created).toMatchObject({ statusCode: 422, code: 'E01137' });
      expect((await bird.broadcasts.get(draft.id)).status).toBe('draft');
    });

    it('a scheduled broadcast is listed under its template, can be edited, and sent now instead', async () => {
      const scheduled = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: template.templateId },
        send: true,
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const blocking = await bird.email.templates.broadcasts.list(template.templateId);
      expect(blocking.data).toEqual([
        expect.objectContaining({
          id: scheduled.id,
          status: 'scheduled',
          scheduled_at: expect.any(String),
          created_at: scheduled.created_at,
        }),
      ]);
      const bySlug: unknown[] = [];
      for await (const row of bird.email.templates.broadcasts.list('newsletter', { limit: 1 }))
        bySlug.push(row);
      expect(bySlug).toEqual(blocking.data);
      // The template cannot be deleted while a broadcast that has not pinned it needs it.
      expect(await rejects(bird.email.templates.delete(template.templateId))).toMatchObject({
        statusCode: 409,
        code: 'E06034',
      });
      const edited = await bird.broadcasts.update(scheduled.id, {
        tags: [{ name: 'edited', value: 'yes' }],
      });
      expect(edited).toMatchObject({
        status: 'scheduled',
        tags: [{ name: 'edited', value: 'yes' }],
      });
      const now = await bird.broadcasts.send(scheduled.id);
      expect(now.status).toBe('accepted');
      expect((await settled(scheduled.id)).status).toBe('sent');
      expect((await bird.email.templates.broadcasts.list(template.templateId)).data).toEqual([]);
      expect((await bird.email.templates.broadcasts.list('bird_welcome')).data).toEqual([]);
      expect(await rejects(bird.email.templates.broadcasts.list('no-such-template'))).toMatchObject(
        { statusCode: 404 },
      );
    });

    it('a sending broadcast kept its template: the delete goes through, a resumed preparation still renders', async () => {
      const kept = await publishTemplate(bird, {
        slug: 'kept-by-broadcast',
        subject: 'Kept for {{ bird.contact.first_name }}',
        html: '<p>Kept</p>',
      });
      const sent = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: kept.templateId },
        category: 'transactional',
      });
      await bird.broadcasts.send(sent.id);
      expect(await settled(sent.id)).toMatchObject({ status: 'sent' });
      const mailed = await platform.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM email.messages WHERE broadcast_id = $1',
        [sent.id],
      );
      // Caught between pages of its preparation (seconds in real life), as after a restart:
      // nothing left to prepare, the pinned version to read again.
      await platform.db.query(
        `UPDATE email.broadcasts SET status = 'sending', prepared_at = NULL, sent_at = NULL
         WHERE id = $1`,
        [sent.id],
      );
      // One that started before broadcasts kept a copy still needs its template until prepared.
      const copy = await platform.db.query<{ template_snapshot: object }>(
        'SELECT template_snapshot FROM email.broadcasts WHERE id = $1',
        [sent.id],
      );
      expect(copy.rows[0].template_snapshot).toMatchObject({ row: { id: kept.templateId } });
      await platform.db.query(
        'UPDATE email.broadcasts SET template_snapshot = NULL WHERE id = $1',
        [sent.id],
      );
      expect((await bird.email.templates.broadcasts.list(kept.templateId)).data).toEqual([
        expect.objectContaining({ id: sent.id, status: 'sending' }),
      ]);
      expect(await rejects(bird.email.templates.delete(kept.templateId))).toMatchObject({
        statusCode: 409,
        code: 'E06034',
      });
      await platform.db.query('UPDATE email.broadcasts SET template_snapshot = $2 WHERE id = $1', [
        sent.id,
        JSON.stringify(copy.rows[0].template_snapshot),
      ]);
      expect((await bird.email.templates.broadcasts.list(kept.templateId)).data).toEqual([]);
      await bird.email.templates.delete(kept.templateId);
      await platform.db.query(
        `INSERT INTO email.jobs (queue, payload) VALUES ('email.broadcast', $1)`,
        [JSON.stringify({ broadcast_id: sent.id })],
      );
      await platform.db.query(`NOTIFY email_jobs, 'email.broadcast'`);
      expect(
        await eventually(
          () => bird.broadcasts.get(sent.id),
          (broadcast) => broadcast.status !== 'sending',
        ),
      ).toMatchObject({ status: 'sent', failure_reason: null });
      expect(
        (
          await platform.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM email.messages WHERE broadcast_id = $1',
            [sent.id],
          )
        ).rows[0],
      ).toEqual(mailed.rows[0]);
    });

    it('a scheduled broadcast sends at its time through the durable queue', async () => {
      const mailed = sink.messages.length;
      const at = new Date(Date.now() + 31_000);
      const scheduled = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: template.templateId },
        category: 'transactional',
        tags: [{ name: 'when', value: 'later' }],
        send: true,
        scheduled_at: at,
      });
      expect(scheduled.status).toBe('scheduled');
      const found = await bird.broadcasts.list({
        q: 'later',
        status: ['scheduled'],
        audience_id: audienceId,
      });
      expect(found.data.map((row) => row.id)).toEqual([scheduled.id]);
      const sent = await eventually(
        () => bird.broadcasts.get(scheduled.id),
        (broadcast) => broadcast.status === 'sent',
        60_000,
      );
      expect(new Date(sent.started_at!).getTime()).toBeGreaterThanOrEqual(at.getTime() - 1000);
      expect(sent.recipient_count).toBe(3);
      // `sent` once every message is queued; the next test counts the sink from when they landed.
      await eventually(
        () => Promise.resolve(sink.messages.length),
        (count) => count >= mailed + 3,
      );
    }, 90_000);

    it('a canceled scheduled broadcast sends nothing; cancel is idempotent and a draft cannot be canceled', async () => {
      const before = sink.messages.length;
      const scheduled = await bird.broadcasts.create({
        from,
        audience_id: audienceId,
        template: { id: template.templateId },
        send: true,
        scheduled_at: new Date(Date.now() + 31_000).toISOString(),
      });
      expect(scheduled).toMatchObject({ status: 'scheduled', scheduled_at: expect.any(String) });
      const canceling = await bird.broadcasts.cancel(scheduled.id);
      expect(canceling).toMatchObject({ status: 'canceling', canceled_at: expect.any(String) });
      const canceled = await settled(scheduled.id);
      expect(canceled.status).toBe('canceled');
      expect((await bird.broadcasts.cancel(scheduled.id)).status).toBe('canceled');
      const draft = await bird.broadcasts.create({ from });
      const refused = await rejects(bird.broadcasts.cancel(draft.id));
      expect(refused).toMatchObject({ statusCode: 409, code: 'E06038' });
      expect(sink.messages.length).toBe(before);
      expect(await bird.broadcasts.listRecipients(scheduled.id)).toMatchObject({
        data: [],
        next_cursor: null,
      });
      expect((await bird.broadcasts.listEvents(scheduled.id)).data).toEqual([]);
    });
  });

  it('another workspace sees nothing: 404 on every operation, empty list', async () => {
    const mine = await bird.broadcasts.create({ from });
    for (const call of [
      () => otherBird.broadcasts.get(mine.id),
      () => otherBird.broadcasts.update(mine.id, { tags: [] }),
      () => otherBird.broadcasts.delete(mine.id),
      () => otherBird.broadcasts.send(mine.id),
      () => otherBird.broadcasts.cancel(mine.id),
      () => otherBird.broadcasts.counts(mine.id),
      () => otherBird.broadcasts.sendQuota(mine.id),
      () => otherBird.broadcasts.listClickedLinks(mine.id),
      () => otherBird.broadcasts.listEvents(mine.id),
      () => otherBird.broadcasts.listRecipients(mine.id),
    ])
      expect((await rejects(call())).statusCode).toBe(404);
    expect((await otherBird.broadcasts.list()).data).toEqual([]);
  });
});

/** The send allowance as settings (EMAIL_DAILY_LIMIT): the quota read and a send beyond it. */
describe('email broadcasts under a send allowance', () => {
  let started: AllowancePlatform;
  let platform: TestPlatform;
  let sink: SmtpSink;
  let bird: BirdClient;
  const domain = 'quota.acme.test';

  beforeAll(async () => {
    started = await startAllowancePlatform(domain, { EMAIL_DAILY_LIMIT: '2' });
    ({ platform, sink, bird } = started);
  }, 60_000);

  afterAll(() => started?.stop());

  it('reports the daily allowance and refuses a send it cannot cover whole (E01138), sending nothing', async () => {
    const template = await publishTemplate(bird, {
      slug: 'quota',
      subject: 'Hi',
      html: '<p>Hi</p>',
      text: 'Hi',
    });
    const draft = await draftToNewAudience(bird, {
      name: 'Three',
      from: `news@${domain}`,
      templateId: template.templateId,
      emails: ['a', 'b', 'c'].map((name) => `${name}@example.com`),
    });
    expect(await bird.broadcasts.sendQuota(draft.id)).toEqual({
      recipients: 3,
      allowed: 0,
      limited_by: 'daily',
      limit: 2,
      remaining: 2,
    });
    const refused = await bird.broadcasts.send(draft.id).catch((err: unknown) => err);
    expect(refused).toMatchObject({ statusCode: 422, code: 'E01138' });
    expect((await bird.broadcasts.get(draft.id)).status).toBe('draft');
    expect(sink.messages).toHaveLength(0);

    // Scheduled, it is checked when it starts, and fails whole instead of sending in part.
    const scheduled = await bird.broadcasts.send(draft.id, {
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.status).toBe('scheduled');
    // Its hour brought forward.
    await platform.db.query('UPDATE email.broadcasts SET scheduled_at = now() WHERE id = $1', [
      draft.id,
    ]);
    await platform.db.query(
      `UPDATE email.jobs SET run_at = now() WHERE queue = 'email.broadcast'
         AND payload->>'broadcast_id' = $1`,
      [draft.id],
    );
    await platform.db.query(`NOTIFY email_jobs, 'email.broadcast'`);
    const failed = await eventually(
      () => bird.broadcasts.get(draft.id),
      (broadcast) => broadcast.status === 'failed',
    );
    expect(failed.failure_reason).toBe('quota_exceeded');
    // Refused as it started, not after its first page of recipients went out.
    expect(failed.started_at ?? null).toBeNull();
    expect(sink.messages).toHaveLength(0);
  });

  it('refuses a send scheduled within the day whose allowance is used up, and takes one for the next day', async () => {
    const template = await publishTemplate(bird, {
      slug: 'used-up',
      subject: 'Hi',
      html: '<p>Hi</p>',
      text: 'Hi',
    });
    // The day's allowance of 2, spent on single sends.
    await bird.email.sendBatch({
      messages: ['one', 'two'].map((name) => ({
        from: `news@${domain}`,
        to: [`${name}@example.com`],
        subject: 'Hi',
        text: 'Hi',
      })),
    });
    const draft = await draftToNewAudience(bird, {
      name: 'Pair',
      from: `news@${domain}`,
      templateId: template.templateId,
      emails: ['p', 'q'].map((name) => `${name}@example.com`),
    });
    const soon = new Date(Date.now() + 35_000).toISOString();
    const refused = await bird.broadcasts
      .send(draft.id, { scheduled_at: soon })
      .catch((err: unknown) => err);
    expect(refused).toMatchObject({ statusCode: 422, code: 'E01138' });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await bird.broadcasts.send(draft.id, { scheduled_at: tomorrow });
    expect(scheduled.status).toBe('scheduled');
    await bird.broadcasts.cancel(draft.id);
  });
});

/** A send allowance that covers part of the audience: batch by batch until it runs out. */
describe('email broadcasts partly covered by the send allowance', () => {
  let started: AllowancePlatform;
  let sink: SmtpSink;
  let bird: BirdClient;
  const domain = 'part.acme.test';

  beforeAll(async () => {
    started = await startAllowancePlatform(domain, { EMAIL_DAILY_LIMIT: '2500' });
    ({ sink, bird } = started);
  }, 60_000);

  afterAll(() => started?.stop());

  it('sends the batches the allowance covers, then fails quota_exceeded partway', async () => {
    // 1,200 of the day's 2,500 spent on single sends: 1,300 left, one whole batch of 1,000.
    for (let batch = 0; batch < 12; batch++)
      await bird.email.sendBatch({
        messages: Array.from({ length: 100 }, (_, n) => ({
          from: `news@${domain}`,
          to: [`single-${batch * 100 + n}@example.com`],
          subject: 'Hi',
          text: 'Hi',
        })),
      });
    const template = await publishTemplate(bird, {
      slug: 'part',
      subject: 'News',
      html: '<p>News</p>',
      text: 'News',
    });
    const draft = await draftToNewAudience(bird, {
      name: 'Two thousand',
      from: `news@${domain}`,
      templateId: template.templateId,
      emails: Array.from({ length: 2000 }, (_, n) => `member-${n}@example.com`),
    });
    expect(await bird.broadcasts.sendQuota(draft.id)).toEqual({
      recipients: 2000,
      allowed: 1000,
      limited_by: 'daily',
      limit: 2500,
      remaining: 1300,
    });
    const sending = await bird.broadcasts.send(draft.id);
    expect(sending.status).not.toBe('failed');
    const failed = await eventually(
      () => bird.broadcasts.get(draft.id),
      (broadcast) => broadcast.status === 'failed',
    );
    expect(failed).toMatchObject({ failure_reason: 'quota_exceeded' });
    expect(failed.started_at).toEqual(expect.any(String));
    const members = () =>
      sink.messages.filter((m) => m.rcptTo.some((to) => to.startsWith('member-')));
    await eventually(
      () => Promise.resolve(members().length),
      (count) => count >= 1000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(members()).toHaveLength(1000);
  }, 120_000);
});

/** Two broadcasts of one workspace sent at once, with room for one of them. */
describe('email broadcasts sent at once under one send allowance', () => {
  let started: AllowancePlatform;
  let sink: SmtpSink;
  let bird: BirdClient;
  const domain = 'twice.acme.test';

  beforeAll(async () => {
    started = await startAllowancePlatform(domain, { EMAIL_DAILY_LIMIT: '1500' });
    ({ sink, bird } = started);
  }, 60_000);

  afterAll(() => started?.stop());

  it('lets their pages together send no more than the allowance', async () => {
    const template = await publishTemplate(bird, {
      slug: 'twice',
      subject: 'News',
      html: '<p>News</p>',
      text: 'News',
    });
    const drafts = [];
    for (const name of ['first', 'second'])
      drafts.push(
        await draftToNewAudience(bird, {
          name,
          from: `news@${domain}`,
          templateId: template.templateId,
          emails: Array.from({ length: 1000 }, (_, n) => `${name}-${n}@example.com`),
        }),
      );
    // Each alone fits (1,000 of 1,500); their pages are checked one at a time.
    await Promise.all(drafts.map((draft) => bird.broadcasts.send(draft.id)));
    const ended = await Promise.all(
      drafts.map((draft) =>
        eventually(
          () => bird.broadcasts.get(draft.id),
          (broadcast) => broadcast.status === 'sent' || broadcast.status === 'failed',
        ),
      ),
    );
    expect(ended.map((broadcast) => broadcast.status).sort()).toEqual(['failed', 'sent']);
    expect(ended.find((broadcast) => broadcast.status === 'failed')).toMatchObject({
      failure_reason: 'quota_exceeded',
    });
    await eventually(
      () => Promise.resolve(sink.messages.length),
      (count) => count >= 1000,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(sink.messages).toHaveLength(1000);
  }, 120_000);

  it('dispatches an accepted broadcast again when it is sent again, each recipient once', async () => {
    const template = await publishTemplate(bird, {
      slug: 'again',
      subject: 'Again',
      html: '<p>Again</p>',
      text: 'Again',
    });
    const draft = await draftToNewAudience(bird, {
      name: 'Two',
      from: `news@${domain}`,
      templateId: template.templateId,
      emails: ['again-1', 'again-2'].map((name) => `${name}@example.com`),
    });
    // Accepted, its dispatch lost (as if its job had gone): the SDK says a send retries it.
    await started.platform.db.query(
      `UPDATE email.broadcasts SET status = 'accepted' WHERE id = $1`,
      [draft.id],
    );
    const resent = await bird.broadcasts.send(draft.id);
    expect(resent).toMatchObject({ id: draft.id, status: 'accepted' });
    await eventually(
      () => bird.broadcasts.get(draft.id),
      (broadcast) => broadcast.status === 'sent',
    );
    const mailed = () =>
      sink.messages.filter((m) => m.rcptTo.some((to) => to.startsWith('again-')));
    await eventually(
      () => Promise.resolve(mailed().length),
      (count) => count >= 2,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      mailed()
        .map((m) => m.rcptTo[0])
        .sort(),
    ).toEqual(['again-1@example.com', 'again-2@example.com']);
  });
});
