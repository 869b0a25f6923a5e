import type { BirdClient } from '@messagebird/sdk';

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
