import { createHash, randomBytes } from 'node:crypto';
import type { Client } from 'pg';

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

const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex').slice(0, 26)}`;

/**
 * A template with one published version in `en`, written to the templates area's tables as its
 * submit does (the broadcasts' tests need published content, not the templates API).
 */
export async function seedPublishedTemplate(
  db: Client,
  workspaceId: string,
  content: { subject: string; html: string; text: string; slug?: string },
): Promise<{ templateId: string; versionId: string }> {
  const templateId = id('emt');
  const versionId = id('emv');
  const draftId = id('emv');
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO email.templates (id, workspace_id, slug, name, category, source, draft_version_id,
       live_version_id)
     VALUES ($1, $2, $3, $3, 'marketing', 'html', $4, $5)`,
    [templateId, workspaceId, content.slug ?? templateId, draftId, versionId],
  );
  await db.query(
    `INSERT INTO email.template_versions (id, workspace_id, template_id, status, version_number,
       default_language, published_at)
     VALUES ($1, $3, $4, 'published', 1, 'en', now()), ($2, $3, $4, 'draft', NULL, 'en', NULL)`,
    [versionId, draftId, workspaceId, templateId],
  );
  await db.query(
    `INSERT INTO email.template_languages (version_id, workspace_id, language, subject, html,
       text, content_hash)
     VALUES ($1, $2, 'en', $3, $4, $5, $6)`,
    [
      versionId,
      workspaceId,
      content.subject,
      content.html,
      content.text,
      createHash('sha256').update(JSON.stringify(content)).digest('hex'),
    ],
  );
  await db.query('COMMIT');
  return { templateId, versionId };
}
