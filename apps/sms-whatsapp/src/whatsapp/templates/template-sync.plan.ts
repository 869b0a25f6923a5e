import type { GraphTemplate } from '../graph/whatsapp-graph';
import { canonicalTag } from './language-tags';
import { copy, incoming, merged } from './language-writes';
import type { Incoming, LanguageWrite } from './language-writes';
import { templateStatusOf } from './template-states';
import type { LanguageRow } from './template-rows';

export type { LanguageWrite } from './language-writes';

/** A template of the account as the sync finds it, with its live version's languages. */
export interface SyncedTemplate {
  id: string;
  slug: string;
  default_language: string;
  live_version_id: string | null;
  live_number: number | null;
  languages: LanguageRow[];
}

export interface SyncPlan {
  newTemplates: Array<{
    id: string;
    slug: string;
    category: string;
    status: string;
    default_language: string;
  }>;
  newVersions: Array<{ id: string; template_id: string; number: number }>;
  /** Live versions a new version replaces. */
  superseded: string[];
  languages: LanguageWrite[];
  /** Every template whose pointers or languages changed: its live version and default language after the sync. */
  templates: Array<{ id: string; live_version_id: string; default_language: string }>;
}

export interface PlanIds {
  template(): string;
  version(): string;
}

const metaOrder = (a: string, b: string) =>
  a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;

/** The language Meta created first, the template's default; `held` first keeps the current one. */
function defaultLanguage(current: string | undefined, langs: readonly Incoming[]): string {
  if (current !== undefined && langs.some((lang) => lang.language === current)) return current;
  return [...langs].sort((a, b) => metaOrder(a.meta_template_id, b.meta_template_id))[0].language;
}

/**
 * What one sync writes, from the account's templates as held and Meta's list: a template per new
 * name; a new live version for a template whose set of languages or any language's content
 * changed (languages Meta dropped are carried into it as `deleted`); otherwise each language
 * whose status, category or quality moved updated in place; the languages of a name Meta no
 * longer lists marked `deleted`. Nothing is ever removed.
 */
export function planSync(
  held: readonly SyncedTemplate[],
  meta: readonly GraphTemplate[],
  now: Date,
  ids: PlanIds,
): SyncPlan {
  const plan: SyncPlan = {
    newTemplates: [],
    newVersions: [],
    superseded: [],
    languages: [],
    templates: [],
  };
  const byName = new Map<string, Incoming[]>();
  for (const entry of meta) {
    const tag = canonicalTag(entry.language);
    if (tag === undefined) continue;
    const langs = byName.get(entry.name) ?? [];
    if (!langs.some((lang) => lang.language === tag)) langs.push(incoming(entry, tag));
    byName.set(entry.name, langs);
  }
  const heldBySlug = new Map(held.map((template) => [template.slug, template]));

  for (const [name, langs] of byName) {
    const template = heldBySlug.get(name);
    const live = new Map((template?.languages ?? []).map((row) => [row.language, row]));
    const current = [...live.values()].filter((row) => row.status !== 'deleted');
    const changed =
      !template?.live_version_id ||
      current.length !== langs.length ||
      langs.some(
        (lang) =>
          live.get(lang.language)?.content_hash !== lang.content_hash ||
          live.get(lang.language)?.status === 'deleted',
      );
    const templateId = template?.id ?? ids.template();
    const defaultTag = defaultLanguage(template?.default_language, langs);
    if (!template) {
      const first = langs.find((lang) => lang.language === defaultTag) as Incoming;
      plan.newTemplates.push({
        id: templateId,
        slug: name,
        category: first.previous_category ?? first.category ?? 'utility',
        status: templateStatusOf(langs.map((lang) => lang.status)),
        default_language: defaultTag,
      });
    }
    if (!changed && template?.live_version_id) {
      let anyMoved = false;
      for (const lang of langs) {
        const row = live.get(lang.language) as LanguageRow;
        const next = merged(row, lang, now);
        const moved =
          row.status !== next.status ||
          row.category !== next.category ||
          row.previous_category !== next.previous_category ||
          row.quality !== next.quality ||
          row.meta_template_id !== next.meta_template_id ||
          JSON.stringify(row.rejection) !== JSON.stringify(next.rejection);
        if (moved) plan.languages.push({ ...copy(row), ...next });
        anyMoved ||= moved;
      }
      if (anyMoved || defaultTag !== template.default_language)
        plan.templates.push({
          id: template.id,
          live_version_id: template.live_version_id,
          default_language: defaultTag,
        });
      continue;
    }
    const versionId = ids.version();
    plan.newVersions.push({
      id: versionId,
      template_id: templateId,
      number: (template?.live_number ?? 0) + 1,
    });
    if (template?.live_version_id) plan.superseded.push(template.live_version_id);
    for (const lang of langs) {
      const row = live.get(lang.language);
      const same = row !== undefined && row.content_hash === lang.content_hash;
      plan.languages.push({
        ...merged(same ? row : undefined, lang, now),
        version_id: versionId,
        language: lang.language,
        components: lang.components,
        content_hash: lang.content_hash,
        revision: row === undefined ? 1 : same ? row.revision : row.revision + 1,
        submitted_at: same ? new Date(row.submitted_at) : now,
      });
    }
    for (const row of live.values())
      if (!langs.some((lang) => lang.language === row.language))
        plan.languages.push({ ...copy(row), version_id: versionId, status: 'deleted' });
    plan.templates.push({
      id: templateId,
      live_version_id: versionId,
      default_language: defaultTag,
    });
  }

  for (const template of held) {
    if (byName.has(template.slug) || !template.live_version_id) continue;
    const gone = template.languages.filter((row) => row.status !== 'deleted');
    if (gone.length === 0) continue;
    for (const row of gone) plan.languages.push({ ...copy(row), status: 'deleted' });
    plan.templates.push({
      id: template.id,
      live_version_id: template.live_version_id,
      default_language: template.default_language,
    });
  }
  return plan;
}
