import type { LiveTemplateRow } from './published-templates.repository';

/**
 * What a pin taken from a recently read live version relied on. The send's insert checks it in
 * the same statement (`email.refuse_stale_template_pins`): a template changed since then (another
 * version live, a new slug, category or language rule, deleted) aborts the insert, and the send
 * pins afresh. A send accepted after a submit returned thus never carries the older version.
 */
export interface TemplatePinGuard {
  workspace_id: string;
  id: string;
  slug: string;
  version_id: string;
  category: string;
  on_missing_language: string;
  language_source_required: boolean;
}

/** The SQLSTATE `email.refuse_stale_template_pins` raises. */
const STALE_PIN = 'SBT01';

export function isStaleTemplatePin(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === STALE_PIN;
}

const RECENT_SIZE = 2_000;

/**
 * The live version each (workspace, template id or slug) had when last read, published ones
 * only: a send by template pins from it without a query, guarded as above. Rows are replaced by
 * every later read; the oldest go first past 2,000.
 */
export class RecentLiveTemplates {
  private readonly rows = new Map<string, LiveTemplateRow>();

  get(workspaceId: string, ref: string): LiveTemplateRow | undefined {
    return this.rows.get(`${workspaceId} ${ref}`);
  }

  /** What a read found for `refs`: a ref without a published row is forgotten. */
  remember(workspaceId: string, refs: string[], found: Map<string, LiveTemplateRow>): void {
    for (const ref of refs) {
      const key = `${workspaceId} ${ref}`;
      const row = found.get(ref);
      this.rows.delete(key);
      if (!row?.version_id || !row.default_language || !row.languages?.length) continue;
      if (this.rows.size >= RECENT_SIZE) this.rows.delete(this.rows.keys().next().value as string);
      this.rows.set(key, row);
    }
  }
}

/** The guard of a pin of `row`'s live version. */
export function guardOf(workspaceId: string, row: LiveTemplateRow): TemplatePinGuard {
  return {
    workspace_id: workspaceId,
    id: row.id,
    slug: row.slug,
    version_id: row.version_id as string,
    category: row.category,
    on_missing_language: row.on_missing_language,
    language_source_required: row.language_source_required,
  };
}
