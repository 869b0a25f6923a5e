import { BirdClient } from '@messagebird/sdk';
import type { EmailBroadcast } from '@messagebird/sdk';
import { createWorkspace, publishedAs, startDnsServer, startSmtpSink } from '@switchboard/testing';
import type { SmtpSink, TestDnsServer } from '@switchboard/testing';
import { startTestPlatform } from './test-platform';
import type { TestPlatform } from './test-platform';

/** Reads until `done` holds (or throws after `ms`). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A template with one published version in `en`, through the templates API: created, then its
 * draft submitted. Answers its id and the version now live.
 */
export async function publishTemplate(
  bird: BirdClient,
  content: { slug: string; subject: string; html: string; text?: string },
): Promise<{ templateId: string; versionId: string }> {
  const { slug, ...language } = content;
  const template = await bird.email.templates.create({
    slug,
    category: 'marketing',
    source: 'html',
    languages: { en: language },
  });
  const submitted = await bird.email.templates.versions.submit(
    template.id,
    template.draft_version_id as string,
  );
  if (!submitted.valid) throw new Error(`template ${slug} did not publish`);
  const live = await bird.email.templates.get(template.id);
  return { templateId: template.id, versionId: live.live_version_id as string };
}

/**
 * A new audience of `emails` (added a thousand at a time, the batch's bound) and a draft
 * broadcast to it from `from` with the template.
 */
export async function draftToNewAudience(
  bird: BirdClient,
  draft: { name: string; from: string; templateId: string; emails: string[] },
): Promise<EmailBroadcast> {
  const audience = await bird.audiences.create({ name: draft.name });
  for (let start = 0; start < draft.emails.length; start += 1000)
    await bird.contacts.batch({
      audience_ids: [audience.id],
      contacts: draft.emails.slice(start, start + 1000).map((email) => ({ email })),
    });
  return bird.broadcasts.create({
    from: draft.from,
    audience_id: audience.id,
    template: { id: draft.templateId },
  });
}

/** A platform delivering into its own sink, one workspace with `domain` verified, `env` set. */
export interface AllowancePlatform {
  platform: TestPlatform;
  sink: SmtpSink;
  bird: BirdClient;
  stop(): Promise<void>;
}

export async function startAllowancePlatform(
  domain: string,
  env: Record<string, string>,
): Promise<AllowancePlatform> {
  const [sink, dns]: [SmtpSink, TestDnsServer] = await Promise.all([
    startSmtpSink(),
    startDnsServer(),
  ]);
  const platform = await startTestPlatform({
    RATE_LIMITS: 'off',
    SMTP_RELAY_URL: sink.url,
    DNS_SERVERS: dns.address,
    ...env,
  });
  const workspace = await createWorkspace(platform.base, platform.adminToken, { name: domain });
  const bird = new BirdClient({
    apiKey: workspace.api_key.secret,
    baseUrl: platform.base,
    maxRetries: 0,
  });
  const registered = await bird.domains.create({ domain });
  for (const record of registered.dns_records) dns.set(record.host, [publishedAs(record)]);
  if ((await bird.domains.verify(registered.id)).status !== 'verified')
    throw new Error(`${domain} did not verify`);
  return {
    platform,
    sink,
    bird,
    stop: async () => {
      await platform.stop();
      await Promise.all([sink.stop(), dns.stop()]);
    },
  };
}
