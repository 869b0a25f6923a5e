import type { GraphTemplate } from '../graph/whatsapp-graph';
import { contentHashOf } from './meta-components';
import type { MetaComponent } from './meta-components';
import { languageStatusOf } from './template-states';
import type { LanguageRow } from './template-rows';

/** A language row to write: inserted under a new version, or updated in place (status-only). */
export interface LanguageWrite {
  version_id: string;
  language: string;
  meta_template_id: string;
  components: MetaComponent[];
  status: string;
  category: string | null;
  previous_category: string | null;
  quality: string | null;
  quality_previous: string | null;
  quality_updated_at: Date | null;
  rejection: LanguageRow['rejection'];
  revision: number;
  content_hash: string;
  submitted_at: Date;
  approved_at: Date | null;
}

const lower = (value: string | undefined | null) =>
  value === undefined || value === null || value === '' ? null : value.toLowerCase();
const at = (value: Date | string | null) => (value === null ? null : new Date(value));

/** Meta's language of one name as the row it becomes (content and what Meta says of it). */
export function incoming(meta: GraphTemplate, tag: string) {
  const status = languageStatusOf(meta.status);
  const reason = lower(meta.rejected_reason);
  return {
    language: tag,
    meta_template_id: meta.id,
    components: meta.components,
    content_hash: contentHashOf(meta.components),
    status,
    category: lower(meta.category),
    previous_category: lower(meta.previous_category),
    quality: lower(meta.quality_score?.score),
    rejection:
      status === 'rejected'
        ? {
            ...(reason && reason !== 'none' ? { category: reason } : {}),
            reason: null,
            recommendation: null,
          }
        : null,
  };
}
export type Incoming = ReturnType<typeof incoming>;

/** The language's Meta-side state over what was held: category and quality keep where they moved from. */
export function merged(held: LanguageRow | undefined, next: Incoming, now: Date) {
  const qualityMoved = held !== undefined && held.quality !== next.quality;
  return {
    status: next.status,
    category: next.category,
    previous_category:
      next.previous_category ??
      (held && held.category !== next.category ? held.category : (held?.previous_category ?? null)),
    quality: next.quality,
    quality_previous: qualityMoved ? held.quality : (held?.quality_previous ?? null),
    quality_updated_at:
      qualityMoved || !held ? (next.quality ? now : null) : at(held.quality_updated_at),
    rejection: next.rejection,
    meta_template_id: next.meta_template_id,
    approved_at: at(held?.approved_at ?? null) ?? (next.status === 'approved' ? now : null),
  };
}

/** A held language row as a write, to update in place or carry into a new version. */
export function copy(row: LanguageRow): LanguageWrite {
  return {
    version_id: row.version_id,
    language: row.language,
    meta_template_id: row.meta_template_id,
    components: row.components,
    status: row.status,
    category: row.category,
    previous_category: row.previous_category,
    quality: row.quality,
    quality_previous: row.quality_previous,
    quality_updated_at: at(row.quality_updated_at),
    rejection: row.rejection,
    revision: row.revision,
    content_hash: row.content_hash,
    submitted_at: new Date(row.submitted_at),
    approved_at: at(row.approved_at),
  };
}
