import { Injectable } from '@nestjs/common';
import { rowsOf } from '@switchboard/persistence';
import type { SqlRunner } from '@switchboard/persistence';
import type { SyncedTemplate, SyncPlan } from './template-sync.plan';

const S = 'sms_whatsapp';
/** The work queue of template syncs; a job's payload names one business account. */
export const TEMPLATE_SYNC_QUEUE = 'whatsapp.template_sync';

/**
 * The template's status from its live version's languages, as `templateStatusOf` computes it
 * (template-states.ts): active, else pending, else rejected when all were, else inactive.
 */
const AGGREGATE_STATUS = `CASE
  WHEN bool_or(l.status = 'approved') THEN 'active'
  WHEN bool_or(l.status IN ('pending', 'in_appeal')) THEN 'pending'
  WHEN count(*) > 0 AND bool_and(l.status = 'rejected') THEN 'rejected'
  ELSE 'inactive' END`;

export interface SyncAccount {
  id: string;
  workspace_id: string;
  waba: string;
}

/** The SQL of template syncs: the account's state, the plan's writes (a statement per table), the queue. */
@Injectable()
export class TemplateSyncRepository {
  async account(runner: SqlRunner, id: string): Promise<SyncAccount | undefined> {
    return rowsOf<SyncAccount>(
      await runner.query(
        `SELECT id, workspace_id, waba FROM ${S}.whatsapp_business_accounts WHERE id = $1`,
        [id],
      ),
    )[0];
  }

  /** The business account of a workspace's channel group: undefined, no group; null, no account. */
  async channelGroupAccount(
    runner: SqlRunner,
    workspaceId: string,
    channelGroupId: string,
  ): Promise<string | null | undefined> {
    const rows = rowsOf<{ business_account_id: string | null }>(
      await runner.query(
        `SELECT business_account_id FROM ${S}.channel_groups WHERE workspace_id = $1 AND id = $2::uuid`,
        [workspaceId, channelGroupId],
      ),
    );
    return rows.length === 0 ? undefined : rows[0].business_account_id;
  }

  /** Every template of the account with its live version's number and languages. */
  async state(runner: SqlRunner, accountId: string): Promise<SyncedTemplate[]> {
    return rowsOf<SyncedTemplate>(
      await runner.query(
        `SELECT t.id, t.slug, t.default_language, t.live_version_id, v.number AS live_number,
           coalesce(json_agg(l.* ORDER BY l.language) FILTER (WHERE l.version_id IS NOT NULL), '[]') AS languages
         FROM ${S}.whatsapp_templates t
         LEFT JOIN ${S}.whatsapp_template_versions v ON v.id = t.live_version_id
         LEFT JOIN ${S}.whatsapp_template_languages l ON l.version_id = t.live_version_id
         WHERE t.business_account_id = $1
         GROUP BY t.id, v.number`,
        [accountId],
      ),
    );
  }

  /** The plan's writes, each table's rows in one statement, then the templates' aggregates. */
  async write(runner: SqlRunner, account: SyncAccount, plan: SyncPlan, now: Date): Promise<void> {
    const { newTemplates: t, newVersions: v, languages: l, templates: u } = plan;
    if (t.length > 0)
      await runner.query(
        `INSERT INTO ${S}.whatsapp_templates
           (id, workspace_id, business_account_id, slug, name, category, status, default_language, created_at, updated_at)
         SELECT id, $1, $2, slug, slug, category, status, default_language, $8, $8
         FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS n(id, slug, category, status, default_language)`,
        [
          account.workspace_id,
          account.id,
          t.map((x) => x.id),
          t.map((x) => x.slug),
          t.map((x) => x.category),
          t.map((x) => x.status),
          t.map((x) => x.default_language),
          now,
        ],
      );
    if (v.length > 0)
      await runner.query(
        `WITH superseded AS (
           UPDATE ${S}.whatsapp_template_versions SET status = 'superseded', updated_at = $5
           WHERE id = ANY($4::text[]) RETURNING id)
         INSERT INTO ${S}.whatsapp_template_versions (id, workspace_id, template_id, number, status, created_at, updated_at)
         SELECT id, $1, template_id, number, 'live', $5, $5
         FROM unnest($2::text[], $3::text[], $6::int[]) AS n(id, template_id, number)`,
        [
          account.workspace_id,
          v.map((x) => x.id),
          v.map((x) => x.template_id),
          plan.superseded,
          now,
          v.map((x) => x.number),
        ],
      );
    if (l.length > 0)
      await runner.query(
        `INSERT INTO ${S}.whatsapp_template_languages AS l
           (version_id, language, workspace_id, meta_template_id, components, status, category,
            previous_category, quality, quality_previous, quality_updated_at, rejection, revision,
            content_hash, submitted_at, approved_at, updated_at)
         SELECT version_id, language, $1, meta_template_id, components, status, category,
           previous_category, quality, quality_previous, quality_updated_at, rejection, revision,
           content_hash, submitted_at, approved_at, $17
         FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[], $6::text[], $7::text[], $8::text[],
           $9::text[], $10::text[], $11::timestamptz[], $12::jsonb[], $13::int[], $14::text[],
           $15::timestamptz[], $16::timestamptz[])
           AS n(version_id, language, meta_template_id, components, status, category, previous_category,
             quality, quality_previous, quality_updated_at, rejection, revision, content_hash, submitted_at, approved_at)
         ON CONFLICT (version_id, language) DO UPDATE SET
           meta_template_id = EXCLUDED.meta_template_id, status = EXCLUDED.status,
           category = EXCLUDED.category, previous_category = EXCLUDED.previous_category,
           quality = EXCLUDED.quality, quality_previous = EXCLUDED.quality_previous,
           quality_updated_at = EXCLUDED.quality_updated_at, rejection = EXCLUDED.rejection,
           approved_at = EXCLUDED.approved_at, updated_at = EXCLUDED.updated_at`,
        [
          account.workspace_id,
          l.map((x) => x.version_id),
          l.map((x) => x.language),
          l.map((x) => x.meta_template_id),
          l.map((x) => JSON.stringify(x.components)),
          l.map((x) => x.status),
          l.map((x) => x.category),
          l.map((x) => x.previous_category),
          l.map((x) => x.quality),
          l.map((x) => x.quality_previous),
          l.map((x) => x.quality_updated_at),
          l.map((x) => (x.rejection ? JSON.stringify(x.rejection) : null)),
          l.map((x) => x.revision),
          l.map((x) => x.content_hash),
          l.map((x) => x.submitted_at),
          l.map((x) => x.approved_at),
          now,
        ],
      );
    if (u.length > 0)
      await runner.query(
        `UPDATE ${S}.whatsapp_templates t SET live_version_id = n.live_version_id,
           default_language = n.default_language, status = agg.status,
           last_submitted_at = agg.last_submitted_at, updated_at = $4
         FROM unnest($1::text[], $2::text[], $3::text[]) AS n(id, live_version_id, default_language)
         CROSS JOIN LATERAL (
           SELECT ${AGGREGATE_STATUS} AS status, max(l.submitted_at) AS last_submitted_at
           FROM ${S}.whatsapp_template_languages l WHERE l.version_id = n.live_version_id) agg
         WHERE t.id = n.id`,
        [
          u.map((x) => x.id),
          u.map((x) => x.live_version_id),
          u.map((x) => x.default_language),
          now,
        ],
      );
    await runner.query(
      `UPDATE ${S}.whatsapp_business_accounts SET templates_synced_at = $2 WHERE id = $1`,
      [account.id, now],
    );
  }

  /**
   * A sync job per account unless one is already waiting to start (a running one read Meta
   * before this request: it gets a successor).
   */
  async enqueue(runner: SqlRunner, accountIds: readonly string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await runner.query(
      `INSERT INTO ${S}.jobs (queue, payload)
       SELECT $1, jsonb_build_object('business_account_id', a.id)
       FROM unnest($2::text[]) AS a(id)
       WHERE NOT EXISTS (
         SELECT 1 FROM ${S}.jobs j WHERE j.queue = $1 AND j.locked_until IS NULL
           AND j.payload->>'business_account_id' = a.id)`,
      [TEMPLATE_SYNC_QUEUE, [...new Set(accountIds)]],
    );
  }

  /** Accounts whose templates were last synced longer ago than `intervalMs`, or never. */
  async enqueueDue(runner: SqlRunner, intervalMs: number): Promise<number> {
    const rows = rowsOf<{ id: string }>(
      await runner.query(
        `SELECT id FROM ${S}.whatsapp_business_accounts
         WHERE templates_synced_at IS NULL OR templates_synced_at < now() - make_interval(secs => $1)`,
        [intervalMs / 1000],
      ),
    );
    await this.enqueue(
      runner,
      rows.map((row) => row.id),
    );
    return rows.length;
  }

  /**
   * A language's status from Meta's webhook, on the live version of the template holding it,
   * then its template's aggregate. `found` false: the account holds no such Meta template yet.
   */
  async applyStatus(
    runner: SqlRunner,
    wabaId: string,
    metaTemplateId: string,
    status: string,
    rejection: Record<string, unknown> | null,
  ): Promise<{ accountId: string | null; found: boolean }> {
    const targets = rowsOf<{ account_id: string; template_id: string | null }>(
      await runner.query(
        `SELECT a.id AS account_id, t.id AS template_id
         FROM ${S}.whatsapp_business_accounts a
         LEFT JOIN (${S}.whatsapp_templates t
           JOIN ${S}.whatsapp_template_languages l
             ON l.version_id = t.live_version_id AND l.meta_template_id = $2)
           ON t.business_account_id = a.id
         WHERE a.waba = $1`,
        [wabaId, metaTemplateId],
      ),
    );
    const templateIds = targets.flatMap((row) => (row.template_id ? [row.template_id] : []));
    if (templateIds.length === 0)
      return { accountId: targets[0]?.account_id ?? null, found: false };
    await runner.query(
      `UPDATE ${S}.whatsapp_template_languages l SET status = $3,
         rejection = CASE WHEN $3 = 'rejected' THEN $4::jsonb END,
         approved_at = coalesce(l.approved_at, CASE WHEN $3 = 'approved' THEN clock_timestamp() END),
         updated_at = clock_timestamp()
       FROM ${S}.whatsapp_templates t
       WHERE t.id = ANY($1::text[]) AND l.version_id = t.live_version_id
         AND l.meta_template_id = $2 AND l.status IS DISTINCT FROM $3`,
      [templateIds, metaTemplateId, status, rejection ? JSON.stringify(rejection) : null],
    );
    await runner.query(
      `UPDATE ${S}.whatsapp_templates t SET status = agg.status, updated_at = clock_timestamp()
       FROM ${S}.whatsapp_templates t2
       CROSS JOIN LATERAL (
         SELECT ${AGGREGATE_STATUS} AS status
         FROM ${S}.whatsapp_template_languages l WHERE l.version_id = t2.live_version_id) agg
       WHERE t2.id = ANY($1::text[]) AND t.id = t2.id AND t.status IS DISTINCT FROM agg.status`,
      [templateIds],
    );
    return { accountId: targets[0].account_id, found: true };
  }
}
