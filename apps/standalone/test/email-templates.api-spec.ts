import { BirdClient } from '@messagebird/sdk';
import type { EmailTemplate } from '@messagebird/sdk';
import {
  call,
  createWorkspace,
  publishedAs,
  startDnsServer,
  startSmtpSink,
} from '@switchboard/testing';
import type { CreatedWorkspace, SmtpSink, TestDnsServer } from '@switchboard/testing';
import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import { startTestPlatform, TEST_ADMIN_TOKEN } from './test-platform';
import type { TestPlatform } from './test-platform';

interface Sent {
  id: string;
  status: string;
  subject: string;
  category: string;
  template_id: string | null;
  template_version_id: string | null;
  requested_language: string | null;
  resolved_language: string | null;
}

const FINAL = ['delivered', 'bounced', 'rejected', 'partial_failure', 'complained', 'canceled'];

/**
 * Email templates end to end on the embedded default, with the official SDK: every
 * `email.templates` operation and rule, and sends by template delivered into a real SMTP sink.
 */
describe('email templates through the gateway', () => {
  let platform: TestPlatform;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let acme: CreatedWorkspace;
  let other: CreatedWorkspace;
  let bird: BirdClient;
  let otherBird: BirdClient;
  const domain = 'mail.templates.test';
  const from = `hello@${domain}`;

  const api = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    call<T>(platform.base, method, path, { token: acme.api_key.secret, body });
  const messageCount = async () =>
    Number(
      (
        await platform.db.query<{ count: string }>(
          'SELECT count(*) FROM email.messages WHERE workspace_id = $1',
          [acme.workspace.id],
        )
      ).rows[0].count,
    );
  const settled = async (id: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!FINAL.includes((await bird.email.get(id)).status)) {
      if (Date.now() > deadline) throw new Error(`${id} not delivered`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const sunkHtml = async (id: string) => {
    const message = sink.messages.find((m) => m.messageId.startsWith(`${id}@`));
    if (!message) throw new Error(`${id} not in the sink`);
    const parsed = await simpleParser(message.raw);
    return { subject: parsed.subject, html: parsed.html || '', text: parsed.text ?? '' };
  };
  /** A template with English and French content, submitted once. */
  const published = async (slug: string, extra: Record<string, unknown> = {}) => {
    const template = await bird.email.templates.create({
      slug,
      category: 'transactional',
      source: 'html',
      languages: {
        en: { subject: 'Order {{ order_id }}', html: '<p>Hi {{ name }}, order {{ order_id }}</p>' },
        fr: { subject: 'Commande {{ order_id }}', html: '<p>Bonjour {{ name }}</p>' },
      },
      ...extra,
    });
    const result = await bird.email.templates.versions.submit(
      template.id,
      template.draft_version_id as string,
    );
    expect(result.valid).toBe(true);
    return bird.email.templates.get(template.id);
  };

  beforeAll(async () => {
    sink = await startSmtpSink();
    dns = await startDnsServer();
    platform = await startTestPlatform({
      SMTP_RELAY_URL: sink.url,
      DNS_SERVERS: dns.address,
      RATE_LIMITS: 'email_send=100000,email_batch=100000,read=100000,api_list=100000,write=100000',
    });
    acme = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Acme' });
    other = await createWorkspace(platform.base, TEST_ADMIN_TOKEN, { name: 'Other' });
    bird = new BirdClient({ apiKey: acme.api_key.secret, baseUrl: platform.base });
    otherBird = new BirdClient({ apiKey: other.api_key.secret, baseUrl: platform.base });
    const registered = await bird.domains.create({ domain });
    for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
    expect((await bird.domains.verify(registered.id)).status).toBe('verified');
  }, 60_000);

  afterAll(async () => {
    await platform?.stop();
    await sink?.stop();
    await dns?.stop();
  });

  describe('templates', () => {
    it('creates a draft template, read by id or slug, listed with filters and cursors', async () => {
      const created = await bird.email.templates.create({
        slug: 'welcome-email',
        category: 'marketing',
        source: 'html',
        description: 'Sent after sign-up',
        languages: { 'pt-br': { subject: 'Olá', html: '<p>Olá</p>' } },
      });
      expect(created).toMatchObject({
        slug: 'welcome-email',
        name: 'welcome-email',
        scope: 'workspace',
        status: 'draft',
        theme: null,
        workspace_id: acme.workspace.id,
        default_language: 'pt-BR',
        available_languages: [],
        live_version_id: null,
        published_version_id: null,
        revision: 1,
        on_missing_language: 'fallback',
        language_source_required: false,
        last_submitted_at: null,
        languages: { 'pt-BR': { status: 'draft', draft: true } },
      });
      expect(created.id).toMatch(/^emt_/);
      expect(created.draft_version_id).toMatch(/^emv_/);
      expect((await bird.email.templates.get('welcome-email')).id).toBe(created.id);
      await bird.email.templates.create({
        slug: 'receipt',
        category: 'transactional',
        source: 'html',
      });
      const marketing = await bird.email.templates.list({ category: 'marketing', q: 'SIGN-UP' });
      expect(marketing.data).toEqual([
        expect.objectContaining({
          id: created.id,
          slug: 'welcome-email',
          scope: 'workspace',
          status: 'draft',
          category: 'marketing',
          source: 'html',
          draft_version_id: created.draft_version_id,
          live_version_id: null,
          live_version_number: null,
        }),
      ]);
      expect(marketing.next_cursor).toBeNull();
      const first = await bird.email.templates.list({ limit: 1 });
      expect(first.data.map((t) => t.slug)).toEqual(['receipt']);
      expect(first.next_cursor).toEqual(expect.any(String));
      const next = await bird.email.templates.list({
        limit: 1,
        starting_after: first.next_cursor as string,
      });
      expect(next.data.map((t) => t.slug)).toEqual(['welcome-email']);
      const back = await bird.email.templates.list({
        limit: 1,
        ending_before: next.prev_cursor as string,
      });
      expect(back.data.map((t) => t.slug)).toEqual(['receipt']);
      const walked: string[] = [];
      for await (const t of bird.email.templates.list({ limit: 1, scope: 'workspace' }))
        walked.push(t.slug);
      expect(walked).toEqual(['receipt', 'welcome-email']);
      const html = await bird.email.templates.list({ source: 'html', category: 'transactional' });
      expect(html.data.map((t) => t.slug)).toEqual(['receipt']);
      expect((await bird.email.templates.list({ scope: 'system' })).data).toEqual([]);
      // A theme narrows to the built-in catalog, which the embedded default does not ship.
      expect((await bird.email.templates.list({ theme: 'matte' })).data).toEqual([]);
    });

    it('refuses bad slugs (422), a taken slug (409), a missing default language (422), unknown fields (422)', async () => {
      for (const slug of ['bird_x', 'emt_x', 'Upper', '-x'])
        await expect(
          bird.email.templates.create({ slug, category: 'marketing', source: 'html' }),
        ).rejects.toMatchObject({ statusCode: 422 });
      await expect(
        bird.email.templates.create({ slug: 'receipt', category: 'marketing', source: 'html' }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06030' });
      const noEnglish = await api('POST', '/v1/email/templates', {
        slug: 'two-langs',
        category: 'marketing',
        source: 'html',
        languages: { fr: { subject: 'a' }, de: { subject: 'b' } },
      });
      expect(noEnglish).toMatchObject({ status: 422, body: { error: { code: 'E01121' } } });
      const unknown = await api('POST', '/v1/email/templates', {
        slug: 'x1',
        category: 'marketing',
        source: 'html',
        colour: 'red',
        languages: { en: { subject: 'a', body: 'b' } },
      });
      expect(unknown.status).toBe(422);
    });

    it('updates with the draft revision; a stale one is 409', async () => {
      const template = await bird.email.templates.get('welcome-email');
      const updated = await bird.email.templates.update('welcome-email', {
        revision: template.revision as number,
        name: 'Welcome',
        description: null,
        on_missing_language: 'fail',
      });
      expect(updated).toMatchObject({
        name: 'Welcome',
        description: null,
        on_missing_language: 'fail',
        revision: (template.revision as number) + 1,
      });
      await expect(
        bird.email.templates.update('welcome-email', {
          revision: template.revision as number,
          name: 'x',
        }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06031' });
      await expect(
        bird.email.templates.update('welcome-email', {
          revision: updated.revision as number,
          default_language: 'de',
        }),
      ).rejects.toMatchObject({ statusCode: 422, code: 'E01121' });
    });

    it('duplicates to <slug>-copy, refuses a taken slug, and a delete frees the slug', async () => {
      const copy = await bird.email.templates.duplicate('welcome-email');
      expect(copy).toMatchObject({
        slug: 'welcome-email-copy',
        status: 'draft',
        default_language: 'pt-BR',
      });
      const second = await bird.email.templates.duplicate('welcome-email');
      expect(second.slug).toBe('welcome-email-copy-2');
      await expect(
        bird.email.templates.duplicate('welcome-email', { slug: 'receipt' }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06030' });
      await bird.email.templates.delete(copy.id);
      await expect(bird.email.templates.get(copy.id)).rejects.toMatchObject({
        statusCode: 404,
        code: 'E04110',
      });
      expect((await bird.email.templates.duplicate('welcome-email')).slug).toBe(
        'welcome-email-copy',
      );
    });
  });

  describe('languages and versions', () => {
    let template: EmailTemplate;
    let draft: string;

    beforeAll(async () => {
      template = await bird.email.templates.create({
        slug: 'order-shipped',
        category: 'transactional',
        source: 'html',
        languages: { en: { subject: 'Shipped {{ order_id }}', html: '<p>{{ order_id }}</p>' } },
      });
      draft = template.draft_version_id as string;
    });

    it('saves, patches and reads languages with revisions and compatibility findings', async () => {
      const saved = await bird.email.templates.versions.languages.set(template.id, draft, 'FR', {
        subject: 'Expédié',
        html: '<p>Bonjour</p><script>x()</script>',
      });
      expect(saved).toMatchObject({
        language: 'fr',
        revision: 1,
        template_ref: template.id,
        version_id: draft,
        compatibility_severity: 'problem',
      });
      expect(saved.compatibility[0]).toMatchObject({ rule_id: 'html_script', line: 1, column: 15 });
      expect(saved.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      const patched = await bird.email.templates.versions.languages.update(
        template.id,
        draft,
        'fr',
        {
          html: '<p>Bonjour {{ name }}</p>',
          revision: 1,
        },
      );
      expect(patched).toMatchObject({ revision: 2, compatibility_severity: 'none' });
      expect(patched.draft_revision).toBeGreaterThan(saved.draft_revision);
      // A megabyte of HTML and more of text (over the ordinary 1 MB body limit) is saved.
      const big = await bird.email.templates.versions.languages.update(template.id, draft, 'fr', {
        html: `<p>${'é'.repeat(400_000)}</p>`,
        text: 'x'.repeat(600_000),
        revision: 2,
      });
      expect(big).toMatchObject({ revision: 3 });
      const restored = await bird.email.templates.versions.languages.update(
        template.id,
        draft,
        'fr',
        { html: '<p>Bonjour {{ name }}</p>', text: null, revision: 3 },
      );
      expect(restored).toMatchObject({ revision: 4 });
      await expect(
        bird.email.templates.versions.languages.update(template.id, draft, 'fr', {
          subject: 'x',
          revision: 1,
        }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06032' });
      const read = await bird.email.templates.versions.languages.get(template.id, draft, 'fr');
      expect(read.content).toEqual({ subject: 'Expédié', html: '<p>Bonjour {{ name }}</p>' });
      const list = await bird.email.templates.versions.languages.list(template.id, draft);
      expect(list.data.map((l) => [l.language, l.has_html, l.has_text])).toEqual([
        ['en', true, false],
        ['fr', true, false],
      ]);
      await expect(
        bird.email.templates.versions.languages.get(template.id, draft, 'de'),
      ).rejects.toMatchObject({ statusCode: 404, code: 'E04112' });
      await expect(
        bird.email.templates.versions.languages.delete(template.id, draft, 'en'),
      ).rejects.toMatchObject({ statusCode: 422, code: 'E01129' });
    });

    it('submits all or nothing: a validation run lists every problem, a real one is refused', async () => {
      await bird.email.templates.versions.languages.set(template.id, draft, 'de', { subject: ' ' });
      const check = await bird.email.templates.versions.submit(template.id, draft, {
        validate_only: true,
      });
      expect(check).toMatchObject({ valid: false, version: null, version_id: draft });
      expect(check.errors.map((e) => [e.language, e.field, e.code])).toEqual([
        ['de', 'subject', 'E01120'],
        ['de', 'html', 'E01120'],
      ]);
      await expect(bird.email.templates.versions.submit(template.id, draft)).rejects.toMatchObject({
        statusCode: 422,
        code: 'E01120',
      });
      expect((await bird.email.templates.get(template.id)).live_version_id).toBeNull();
      await bird.email.templates.versions.languages.set(template.id, draft, 'de', {
        subject: 'Versandt',
        text: 'Hallo {{ unclosed',
      });
      const liquid = await bird.email.templates.versions.submit(template.id, draft, {
        validate_only: true,
      });
      expect(liquid.errors.map((e) => [e.language, e.field, e.code])).toEqual([
        ['de', 'text', 'E01123'],
      ]);
      await bird.email.templates.versions.languages.delete(template.id, draft, 'de');
    });

    it('publishes the draft: it goes live at once, and an unchanged draft cannot be submitted', async () => {
      const before = await bird.email.templates.get(template.id);
      await expect(
        bird.email.templates.versions.submit(template.id, draft, {
          expected_revision: (before.revision as number) - 1,
        }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06031' });
      const result = await bird.email.templates.versions.submit(template.id, draft, {
        expected_revision: before.revision as number,
      });
      expect(result).toMatchObject({ valid: true, errors: [], version_id: draft });
      expect(result.version).toMatchObject({
        id: draft,
        status: 'published',
        version_number: 1,
        default_language: 'en',
      });
      expect(result.version?.variables.map((v) => v.key)).toEqual(['name', 'order_id']);
      // No text was written: a plain-text body was derived from the HTML.
      expect(result.version?.languages.fr?.text).toBe('Bonjour {{ name }}');
      const live = await bird.email.templates.get(template.id);
      expect(live).toMatchObject({
        status: 'active',
        live_version_id: draft,
        published_version_id: draft,
        available_languages: ['en', 'fr'],
        languages: { en: { status: 'live', draft: false }, fr: { status: 'live', draft: false } },
      });
      expect(live.draft_version_id).not.toBe(draft);
      expect(live.last_submitted_at).not.toBeNull();
      await expect(
        bird.email.templates.versions.submit(template.id, live.draft_version_id as string),
      ).rejects.toMatchObject({ statusCode: 422, code: 'E01122' });
      await expect(bird.email.templates.versions.submit(template.id, draft)).rejects.toMatchObject({
        statusCode: 422,
        code: 'E01160',
      });
      // Published versions are permanent history (the SDK: a 422 validation_error).
      await expect(
        bird.email.templates.versions.languages.update(template.id, draft, 'en', { subject: 'x' }),
      ).rejects.toMatchObject({ statusCode: 422, code: 'E01160' });
      await expect(bird.email.templates.versions.delete(template.id, draft)).rejects.toMatchObject({
        statusCode: 422,
        code: 'E01160',
      });
    });

    it('discards the draft of a template never published to one empty language', async () => {
      const fresh = await bird.email.templates.create({
        slug: 'discarded-unpublished',
        category: 'transactional',
        source: 'html',
        languages: {
          en: { subject: 'Hi', html: '<p>Hi</p>' },
          de: { subject: 'Hallo', html: '<p>Hallo</p>' },
        },
      });
      const draft = fresh.draft_version_id as string;
      await bird.email.templates.versions.delete(fresh.id, draft);
      const languages = await bird.email.templates.versions.languages.list(fresh.id, draft);
      expect(languages.data.map((language) => language.language)).toEqual(['en']);
      const en = await bird.email.templates.versions.languages.get(fresh.id, draft, 'en');
      expect(en.content?.subject ?? null).toBeNull();
      expect(en.content?.html ?? null).toBeNull();
    });

    it('lists versions newest first, discards a draft edit, and rolls back', async () => {
      let current = await bird.email.templates.get(template.id);
      const v2draft = current.draft_version_id as string;
      const read = await bird.email.templates.versions.languages.get(template.id, v2draft, 'en');
      await bird.email.templates.versions.languages.update(template.id, v2draft, 'en', {
        subject: 'Second {{ order_id }}',
      });
      current = await bird.email.templates.get(template.id);
      expect(current.languages.en).toEqual({ status: 'live', draft: true });
      await bird.email.templates.versions.delete(template.id, v2draft);
      // The discard moved the language on: a save of a revision read before it is stale.
      await expect(
        bird.email.templates.versions.languages.update(template.id, v2draft, 'en', {
          subject: 'Stale {{ order_id }}',
          revision: read.revision,
        }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06032' });
      const discarded = await bird.email.templates.versions.languages.get(
        template.id,
        v2draft,
        'en',
      );
      expect(discarded.content?.subject).toBe('Shipped {{ order_id }}');
      // The text v1 derived from its HTML at submit is not carried back as if written.
      expect(discarded.content?.text ?? null).toBeNull();
      await bird.email.templates.versions.languages.update(template.id, v2draft, 'en', {
        subject: 'Second {{ order_id }}',
        html: '<p>Second {{ order_id }}</p>',
      });
      await bird.email.templates.versions.submit(template.id, v2draft);
      const v2 = await bird.email.templates.versions.get(template.id, v2draft);
      expect(v2.languages.en?.text).toBe('Second {{ order_id }}');
      const versions = await bird.email.templates.versions.list(template.id);
      expect(versions.data.map((v) => [v.status, v.version_number])).toEqual([
        ['draft', null],
        ['published', 2],
        ['published', 1],
      ]);
      expect(versions.data[2]).toMatchObject({
        id: draft,
        template_id: template.id,
        default_language: 'en',
        available_languages: ['en', 'fr'],
        published_at: expect.any(String),
      });
      expect(versions.data[2].variables.map((v) => v.key)).toEqual(['name', 'order_id']);
      const walked: string[] = [];
      for await (const version of bird.email.templates.versions.list('order-shipped', { limit: 1 }))
        walked.push(version.id);
      expect(walked).toEqual(versions.data.map((v) => v.id));
      const v1 = await bird.email.templates.versions.get(template.id, draft);
      expect(v1.languages.en?.subject).toBe('Shipped {{ order_id }}');
      current = await bird.email.templates.get(template.id);
      await expect(
        bird.email.templates.versions.rollback(template.id, draft, {
          revision: (current.revision as number) - 1,
        }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06031' });
      const rolled = await bird.email.templates.versions.rollback(template.id, draft, {
        revision: current.revision as number,
      });
      expect(rolled).toMatchObject({
        live_version_id: draft,
        draft_version_id: current.draft_version_id,
      });
      const reset = await bird.email.templates.versions.languages.get(
        template.id,
        current.draft_version_id as string,
        'en',
      );
      expect(reset.content?.subject).toBe('Shipped {{ order_id }}');
      expect(reset.content?.text ?? null).toBeNull();
      await expect(
        bird.email.templates.versions.rollback(template.id, current.draft_version_id as string, {
          revision: rolled.revision as number,
        }),
      ).rejects.toMatchObject({ statusCode: 409, code: 'E06033' });
    });
  });

  describe('previews', () => {
    it('renders the draft with stand-ins, parameters, content, a version or a contact', async () => {
      const template = await bird.email.templates.create({
        slug: 'preview-me',
        category: 'marketing',
        source: 'html',
        languages: {
          en: {
            subject: 'Hi {{ bird.contact.first_name }}',
            preview_text: 'Deals inside',
            html: '<p>{{ deal }} for {{ bird.contact.first_name }}</p>',
          },
        },
      });
      const standIn = await bird.email.templates.preview(template.id);
      expect(standIn).toMatchObject({ subject: 'Hi Ada', language: 'en' });
      expect(standIn.html).toContain('<p> for Ada</p>');
      expect(standIn.html).toContain('Deals inside');
      expect(standIn.variables.map((v) => v.key)).toEqual(['deal']);
      const sampled = await bird.email.templates.preview(template.id, {
        parameters: { deal: '<b>50%</b>', bird: { contact: { first_name: 'Grace' } } },
      });
      expect(sampled.html).toContain('&lt;b&gt;50%&lt;/b&gt; for Grace');
      expect(sampled.text).toContain('<b>50%</b> for Grace');
      const content = await bird.email.templates.preview(template.id, {
        content: { subject: 'Draft {{ deal }}', html: '<p>new</p>' },
        parameters: { deal: 'x' },
      });
      expect(content).toMatchObject({ subject: 'Draft x', html: '<p>new</p>', text: 'new' });
      const contact = await bird.contacts.create({ email: 'lin@example.com', first_name: 'Lin' });
      const forContact = await bird.email.templates.preview(template.id, { contact: contact.id });
      expect(forContact.subject).toBe('Hi Lin');
      await expect(
        bird.email.templates.preview(template.id, { contact: 'con_00000000000000000000000000' }),
      ).rejects.toMatchObject({ statusCode: 404, code: 'E04113' });
      await expect(
        bird.email.templates.preview(template.id, { content: { html: '{% include "x" %}' } }),
      ).rejects.toMatchObject({ statusCode: 422, code: 'E01123' });
      // Nor hidden in a {% liquid %} block, nor as a layout: no file is ever read.
      // Nor content whose derived text is not Liquid.
      for (const html of [
        '<p>{% liquid include ".data/admin-token" %}</p>',
        '{% layout "package.json" %}',
        // Valid as HTML, but the text derived from it (tags stripped) does not parse.
        '<img alt="{% if a %}">x{% endif %}',
      ])
        await expect(
          bird.email.templates.preview(template.id, { content: { html } }),
        ).rejects.toMatchObject({ statusCode: 422, code: 'E01123' });
      await expect(
        bird.email.templates.preview(template.id, {
          version: template.draft_version_id as string,
        }),
      ).rejects.toMatchObject({ statusCode: 422 });
      const big = await api('POST', `/v1/email/templates/${template.id}/preview`, {
        parameters: { deal: 'x'.repeat(17 * 1024) },
      });
      expect(big.status).toBe(422);
      // A loop's literal markup, which Liquid's memory limit does not count: 27 MB was a 200.
      const huge = await api('POST', `/v1/email/templates/${template.id}/preview`, {
        content: { subject: 's', html: '{% tablerow i in (1..1000000) %}{% endtablerow %}' },
      });
      expect(huge.status).toBe(422);
      expect(huge.body).toMatchObject({
        error: {
          code: 'E01123',
          details: [{ param: 'content', message: expect.stringContaining('2,000,000 characters') }],
        },
      });
      await bird.email.templates.versions.submit(template.id, template.draft_version_id as string);
      const live = await bird.email.templates.preview(template.id, {
        version: template.draft_version_id as string,
        parameters: { deal: 'v1' },
      });
      expect(live.html).toContain('v1 for Ada');
    });
  });

  describe('sends by template', () => {
    it('sends the live version as published, even after the draft changes and a new publish', async () => {
      const template = await published('order-confirmation');
      const sent = (await bird.email.send({
        from,
        to: ['ada@example.com'],
        template: { slug: 'order-confirmation', parameters: { name: '<Ada>', order_id: 'A-1' } },
      })) as unknown as Sent;
      expect(sent).toMatchObject({
        status: 'accepted',
        parameters: { name: '<Ada>', order_id: 'A-1' },
        subject: 'Order A-1',
        category: 'transactional',
        template_id: template.id,
        template_version_id: template.live_version_id,
        requested_language: null,
        resolved_language: 'en',
      });
      const draft = template.draft_version_id as string;
      await bird.email.templates.versions.languages.update(template.id, draft, 'en', {
        subject: 'Changed {{ order_id }}',
        html: '<p>Changed</p>',
      });
      await bird.email.templates.versions.submit(template.id, draft);
      await settled(sent.id);
      const delivered = await sunkHtml(sent.id);
      expect(delivered.subject).toBe('Order A-1');
      expect(delivered.html).toContain('<p>Hi &lt;Ada&gt;, order A-1</p>');
      const stored = await api<{ html: string; text: string }>(
        'GET',
        `/v1/email/messages/${sent.id}/content`,
      );
      expect(stored.body.html).toBe('<p>Hi &lt;Ada&gt;, order A-1</p>');
      expect(stored.body.text).toBe('Hi <Ada>, order A-1');
      const read = (await bird.email.get(sent.id)) as unknown as Sent;
      expect(read.template_version_id).toBe(template.live_version_id);
      const after = (await bird.email.send({
        from,
        to: ['ada@example.com'],
        template: { id: template.id, parameters: { name: 'Ada', order_id: 'A-2' } },
      })) as unknown as Sent;
      expect(after.subject).toBe('Changed A-2');
      expect(after.template_version_id).toBe(draft);
      // Rendered once, at accept: a value that reads like a token is sent as written.
      const literal = (await bird.email.send({
        from,
        to: ['ada@example.com'],
        template: { id: template.id, parameters: { name: 'Ada', order_id: '{{ name }}' } },
      })) as unknown as Sent;
      await settled(literal.id);
      expect((await sunkHtml(literal.id)).subject).toBe('Changed {{ name }}');
    });

    it('pins afresh a template changed since its live version was last read: submit, rollback, settings, delete', async () => {
      // Sends by slug pin from the live version this process last read, guarded at insert: each
      // change below must be seen by the very next send.
      const template = await published('pin-guard');
      const v1 = template.live_version_id as string;
      const send = (template: Record<string, unknown>, headers: Record<string, string> = {}) =>
        call<Sent>(platform.base, 'POST', '/v1/email/messages', {
          token: acme.api_key.secret,
          headers,
          body: { from, to: ['pin@example.com'], template: { slug: 'pin-guard', ...template } },
        });
      const both = { parameters: { name: 'Ada', order_id: '1' } };
      expect((await send(both)).body).toMatchObject({
        subject: 'Order 1',
        template_version_id: v1,
      });
      expect((await send(both)).body).toMatchObject({
        subject: 'Order 1',
        template_version_id: v1,
      });

      const v2 = template.draft_version_id as string;
      await bird.email.templates.versions.languages.update(template.id, v2, 'en', {
        subject: 'Shipped {{ order_id }}',
        html: '<p>Shipped {{ order_id }}</p>',
      });
      await bird.email.templates.versions.languages.set(template.id, v2, 'de', {
        subject: 'Versandt {{ order_id }}',
        html: '<p>Versandt</p>',
      });
      await bird.email.templates.versions.submit(template.id, v2);
      // v1, last read, needs `name`: its refusal is not final, the live v2 serves the send.
      expect((await send({ parameters: { order_id: '2' }, language: 'de' })).body).toMatchObject({
        subject: 'Versandt 2',
        template_version_id: v2,
        resolved_language: 'de',
      });

      let current = await bird.email.templates.get(template.id);
      await bird.email.templates.versions.rollback(template.id, v1, {
        revision: current.revision as number,
      });
      // v2, last read, renders these values: only the insert's guard can tell it is no longer live.
      const idempotent = { 'idempotency-key': 'pin-guard-1' };
      const afterRollback = await send({ ...both, language: 'de' }, idempotent);
      expect(afterRollback.body).toMatchObject({
        subject: 'Order 1',
        template_version_id: v1,
        resolved_language: 'en',
      });
      expect((await send({ ...both, language: 'de' }, idempotent)).body.id).toBe(
        afterRollback.body.id,
      );

      const settings = async (on_missing_language: 'fail' | 'fallback') => {
        current = await bird.email.templates.get(template.id);
        await bird.email.templates.update(template.id, {
          revision: current.revision as number,
          on_missing_language,
        });
      };
      await settings('fail');
      let before = await messageCount();
      expect(await send({ ...both, language: 'de' })).toMatchObject({
        status: 422,
        body: { error: { code: 'E01127' } },
      });
      expect(await messageCount()).toBe(before);
      await settings('fallback');
      expect((await send({ ...both, language: 'de' })).body).toMatchObject({
        subject: 'Order 1',
        resolved_language: 'en',
      });
      await bird.email.templates.delete(template.id);
      before = await messageCount();
      // French was never compiled here: its content went with the template, never read.
      for (const language of ['fr', 'en'])
        expect(await send({ ...both, language })).toMatchObject({
          status: 422,
          body: { error: { details: [{ param: 'template.slug' }] } },
        });
      expect(await messageCount()).toBe(before);
    });

    it('serves a broader language, falls back per on_missing_language, or refuses', async () => {
      await published('lang-fallback');
      const send = (template: Record<string, unknown>) =>
        api<Sent>('POST', '/v1/email/messages', {
          from,
          to: ['x@example.com'],
          template: { parameters: { name: 'A', order_id: '1' }, ...template },
        });
      expect((await send({ slug: 'lang-fallback', language: 'fr-CA' })).body).toMatchObject({
        requested_language: 'fr-CA',
        resolved_language: 'fr',
        subject: 'Commande 1',
      });
      expect((await send({ slug: 'lang-fallback', language: 'de' })).body).toMatchObject({
        requested_language: 'de',
        resolved_language: 'en',
      });
      await published('lang-strict', {
        on_missing_language: 'fail',
        language_source_required: true,
      });
      const before = await messageCount();
      const strict = await send({ slug: 'lang-strict', language: 'de' });
      expect(strict).toMatchObject({ status: 422, body: { error: { code: 'E01127' } } });
      const unnamed = await send({ slug: 'lang-strict' });
      expect(unnamed).toMatchObject({
        status: 422,
        body: { error: { code: 'E01126', details: [{ param: 'template.language' }] } },
      });
      expect(await messageCount()).toBe(before);
    });

    it('lets a send take its template’s category for the unsubscribe headers: transactional keeps its own, marketing is refused', async () => {
      await published('unsubscribe-transactional');
      await published('unsubscribe-marketing', { category: 'marketing' });
      const own = { 'List-Unsubscribe': '<https://example.com/u/1>' };
      const parameters = { name: 'A', order_id: '1' };
      const sent = (await bird.email.send({
        from,
        to: ['t@example.com'],
        headers: own,
        template: { slug: 'unsubscribe-transactional', parameters },
      })) as unknown as Sent;
      expect(sent.category).toBe('transactional');
      await settled(sent.id);
      const raw = sink.messages.find((m) => m.messageId.startsWith(`${sent.id}@`))?.raw;
      expect(raw?.toString()).toContain('List-Unsubscribe: <https://example.com/u/1>');
      const before = await messageCount();
      const refused = await api('POST', '/v1/email/messages', {
        from,
        to: ['m@example.com'],
        headers: own,
        template: { slug: 'unsubscribe-marketing', parameters },
      });
      expect(refused).toMatchObject({
        status: 422,
        body: { error: { code: 'E01001', details: [{ param: 'headers.List-Unsubscribe' }] } },
      });
      expect(await messageCount()).toBe(before);
    });

    it('refuses a missing variable, an unknown or unpublished template, with nothing queued', async () => {
      await published('needs-vars');
      await bird.email.templates.create({
        slug: 'never-published',
        category: 'marketing',
        source: 'html',
      });
      const before = await messageCount();
      const missing = await api('POST', '/v1/email/messages', {
        from,
        to: ['x@example.com'],
        template: { slug: 'needs-vars', parameters: { name: 'A' } },
      });
      expect(missing).toMatchObject({
        status: 422,
        body: {
          error: {
            code: 'E01125',
            details: [{ param: 'template.parameters.order_id' }],
          },
        },
      });
      const batch = await api('POST', '/v1/email/batches', {
        messages: [
          {
            from,
            to: ['a@example.com'],
            template: { slug: 'needs-vars', parameters: { name: 'A', order_id: '1' } },
          },
          { from, to: ['b@example.com'], template: { slug: 'no-such-template' } },
          { from, to: ['c@example.com'], template: { slug: 'never-published' } },
        ],
      });
      expect(batch.status).toBe(422);
      expect(
        (batch.body as { error: { details: Array<{ param: string }> } }).error.details,
      ).toEqual([
        expect.objectContaining({ param: 'messages[1].template.slug' }),
        expect.objectContaining({ param: 'messages[2].template' }),
      ]);
      const scheduled = await api('POST', '/v1/email/messages', {
        from,
        to: ['x@example.com'],
        template: { slug: 'needs-vars', parameters: { name: 'A', order_id: '1' } },
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      expect(scheduled).toMatchObject({ status: 422, body: { error: { code: 'E01001' } } });
      expect(await messageCount()).toBe(before);
    });

    it('refuses content whose Liquid renders a NUL or a lone surrogate (422, not 500)', async () => {
      // Liquid makes characters the source never holds: url_decode, base64_decode, \\u escapes.
      for (const [slug, html] of [
        ['renders-nul', '<p>a{{ "%00" | url_decode }}b</p>'],
        ['renders-surrogate', '<p>a{{ "\\ud800" }}b</p>'],
      ]) {
        const template = await bird.email.templates.create({
          slug,
          category: 'transactional',
          source: 'html',
          languages: { en: { subject: 'Hi', html } },
        });
        const submitted = await bird.email.templates.versions.submit(
          template.id,
          template.draft_version_id as string,
        );
        expect(submitted.valid).toBe(true);
        const before = await messageCount();
        const send = await api('POST', '/v1/email/messages', {
          from,
          to: ['x@example.com'],
          template: { slug },
        });
        expect(send).toMatchObject({
          status: 422,
          body: { error: { code: 'E01123', details: [{ param: 'template' }] } },
        });
        expect(await messageCount()).toBe(before);
      }
    });

    it('refuses a send whose parameters make the subject longer than a subject may be', async () => {
      const template = await bird.email.templates.create({
        slug: 'long-subject',
        category: 'transactional',
        source: 'html',
        languages: { en: { subject: 'Re: {{ topic }} {{ topic }}', html: '<p>{{ topic }}</p>' } },
      });
      await bird.email.templates.versions.submit(template.id, template.draft_version_id as string);
      const before = await messageCount();
      const send = await api('POST', '/v1/email/messages', {
        from,
        to: ['x@example.com'],
        template: { slug: 'long-subject', parameters: { topic: 'y'.repeat(600) } },
      });
      expect(send).toMatchObject({
        status: 422,
        body: { error: { code: 'E01123', details: [{ param: 'template' }] } },
      });
      expect(await messageCount()).toBe(before);
    });

    it('refuses a send whose stored content no longer parses (422, not 500)', async () => {
      const template = await published('stored-unparsable');
      // A version published before derived text bodies were checked: its text does not parse.
      await platform.db.query(
        `UPDATE email.template_languages SET text = '{{ order_id' WHERE version_id = $1`,
        [template.live_version_id],
      );
      const send = await api('POST', '/v1/email/messages', {
        from,
        to: ['x@example.com'],
        template: { slug: 'stored-unparsable', parameters: { name: 'A', order_id: '1' } },
      });
      expect(send).toMatchObject({
        status: 422,
        body: { error: { code: 'E01123', details: [{ param: 'template' }] } },
      });
    });

    it('fills bird.contact.* from the contact of the first to address', async () => {
      const template = await bird.email.templates.create({
        slug: 'hello-contact',
        category: 'transactional',
        source: 'html',
        languages: {
          en: {
            subject: 'Hi {{ bird.contact.first_name }}',
            html: '<p>{{ bird.contact.plan }}</p>',
          },
        },
      });
      await bird.email.templates.versions.submit(template.id, template.draft_version_id as string);
      const property = await api('POST', '/v1/contact-properties', {
        key: 'plan',
        type: 'string',
        fallback_value: 'free',
      });
      expect(property.status).toBe(201);
      await bird.contacts.create({ email: 'grace@example.com', first_name: 'Grace' });
      const known = await bird.email.send({
        from,
        to: ['grace@example.com'],
        template: { slug: 'hello-contact' },
      });
      expect(known.subject).toBe('Hi Grace');
      // Grace holds no plan: the property's fallback value is sent.
      await settled(known.id);
      const stored = await api<{ html: string }>('GET', `/v1/email/messages/${known.id}/content`);
      expect(stored.body.html).toBe('<p>free</p>');
      const stranger = await bird.email.send({
        from,
        to: ['nobody@example.com'],
        template: { slug: 'hello-contact' },
      });
      expect(stranger.subject).toBe('Hi');
    });

    it('accepts a batch of template sends, one rendered message each', async () => {
      const result = await bird.email.sendBatch({
        messages: ['en', 'fr'].map((language) => ({
          from,
          to: [`${language}@example.com`],
          category: 'marketing',
          template: { slug: 'needs-vars', language, parameters: { name: 'A', order_id: '7' } },
        })),
      });
      expect(
        result.data.map((item) => [item.category, item.requested_language, item.resolved_language]),
      ).toEqual([
        ['marketing', 'en', 'en'],
        ['marketing', 'fr', 'fr'],
      ]);
      expect((await bird.email.get(result.data[1].id)).subject).toBe('Commande 7');
    });
  });

  it('shows another workspace nothing: its refs are 404, its list empty, its sends 422', async () => {
    const mine = await bird.email.templates.get('needs-vars');
    await expect(otherBird.email.templates.get(mine.id)).rejects.toMatchObject({ statusCode: 404 });
    await expect(otherBird.email.templates.get('needs-vars')).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      otherBird.email.templates.versions.get(mine.id, mine.live_version_id as string),
    ).rejects.toMatchObject({ statusCode: 404 });
    await expect(otherBird.email.templates.delete(mine.id)).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await otherBird.email.templates.list()).data).toEqual([]);
    await expect(otherBird.email.templates.versions.list(mine.id)).rejects.toMatchObject({
      statusCode: 404,
    });
    const send = await call(platform.base, 'POST', '/v1/email/messages', {
      token: other.api_key.secret,
      body: { from: 'x@onboarding.localhost', to: ['y@example.com'], template: { id: mine.id } },
    });
    expect(send.status).toBe(422);
  });

  it('answers generated bad bodies with 4xx, never 500', async () => {
    const template = await published('fuzzed');
    const draft = template.draft_version_id as string;
    const anything = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 30 }), { maxKeys: 3 }),
    );
    const targets: Array<[string, string, fc.Arbitrary<Record<string, unknown>>]> = [
      [
        'POST',
        '/v1/email/templates',
        fc.record(
          {
            slug: anything,
            category: anything,
            source: anything,
            languages: anything,
            default_language: anything,
          },
          { requiredKeys: [] },
        ),
      ],
      [
        'PATCH',
        `/v1/email/templates/${template.id}`,
        fc.record(
          { revision: anything, name: anything, default_language: anything },
          { requiredKeys: [] },
        ),
      ],
      [
        'PUT',
        `/v1/email/templates/${template.id}/versions/${draft}/languages/xx`,
        fc.record(
          { subject: anything, html: anything, text: anything, revision: anything },
          { requiredKeys: [] },
        ),
      ],
      [
        'POST',
        `/v1/email/templates/${template.id}/preview`,
        fc.record(
          {
            content: anything,
            parameters: anything,
            language: anything,
            version: anything,
            contact: anything,
          },
          { requiredKeys: [] },
        ),
      ],
      [
        'POST',
        '/v1/email/messages',
        fc.record({
          from: fc.constant(from),
          to: fc.constant(['x@example.com']),
          template: fc.oneof(
            anything,
            fc.record(
              { slug: anything, id: anything, language: anything, parameters: anything },
              { requiredKeys: [] },
            ),
          ),
        }),
      ],
    ];
    for (const [method, path, body] of targets)
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const response = await api(method, path, value);
          if (response.status >= 500)
            throw new Error(`${method} ${path} ${JSON.stringify(value)}: ${response.status}`);
        }),
        { numRuns: 150 },
      );
  }, 60_000);
});
