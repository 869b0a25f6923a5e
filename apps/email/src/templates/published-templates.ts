import { Injectable } from '@nestjs/common';
import { CommitBatcher } from '@switchboard/background';
import { EmailTemplateErrors } from '@switchboard/contracts';
import type { SqlRunner } from '@switchboard/persistence';
import { AppError } from '@switchboard/platform';
import { CompiledLanguage, undefinedVariableOf } from './compiled-language';
import type { RenderedTemplate, TemplateValues } from './compiled-language';
import {
  joinTemplateErrors,
  TemplateLanguageRequiredError,
  TemplateLanguageUnavailableError,
  TemplateNotPublishedError,
  TemplateUnknownError,
  TemplateVariableMissingError,
} from './template-errors';
import { canonicalLanguage, chooseLanguage } from './template-languages';
import { PublishedTemplatesRepository } from './published-templates.repository';
import type { LiveTemplateRow, StoredLanguageContent } from './published-templates.repository';
import { guardOf, RecentLiveTemplates } from './recent-live-templates';
import type { TemplatePinGuard } from './recent-live-templates';

/** A published version as `PublishedTemplates.snapshot` keeps it: plain JSON. */
export interface TemplateVersionSnapshot {
  row: LiveTemplateRow;
  contents: StoredLanguageContent[];
}

/** How a send or a broadcast names a template, and where in its request (`template`). */
export interface TemplateRef {
  id?: string;
  slug?: string;
  language?: string;
  /** The request field the ref sits at, for error details: `template`, `messages[3].template`. */
  param?: string;
}

/** A template's version fixed for a send: render it per recipient; it never changes. */
export interface PinnedTemplate {
  templateId: string;
  slug: string;
  category: 'transactional' | 'marketing';
  versionId: string;
  versionNumber: number | null;
  /** The language asked for (canonical as given), or null: the default was served. */
  requestedLanguage: string | null;
  /** The language rendered: the one asked for, a broader form, or the default. */
  language: string;
  /** The parameters this language uses (a send must give each). */
  variables: string[];
  /** The `bird.contact.*` attributes this language reads. */
  contactKeys: string[];
  /** Whether it uses `{% for %}` (or `tablerow`), which a broadcast cannot supply values for. */
  usesLoop: boolean;
  /** Throws `TemplateVariableMissingError` when a parameter the language uses has no value. */
  render(values: TemplateValues): RenderedTemplate;
  /** Set when pinned from a recently read live version: what the insert must find unchanged. */
  guard: TemplatePinGuard | null;
}

const COMPILED_CACHE_SIZE = 2_000;

/** A NUL, or a surrogate not in a pair (with `u`, a pair is one code point and never matches). */
const UNSTORABLE = /\u0000|\p{Cs}/u;

/** One pin's templates, and the rows the shared query found for them. */
interface LiveLookup {
  workspaceId: string;
  refs: string[];
  rows: Array<LiveTemplateRow & { ref: string; workspace_id: string }>;
}

/**
 * Pins templates' live versions and renders them, for sends by template and for broadcasts.
 * Published versions never change, so each (version, language) is parsed once and kept (the
 * most recently compiled 2,000); a pin costs one query for however many templates it names, or
 * none for a send pinned from the live versions last read (see `pinAll`).
 */
@Injectable()
export class PublishedTemplates {
  private readonly compiled = new Map<string, CompiledLanguage>();
  private readonly recent = new RecentLiveTemplates();
  /**
   * Lookups of live versions that arrive while one query runs share the next: under load one
   * query answers many sends. Each is answered by a query started after it arrived, so a send
   * accepted after a submit returned always sees the version that submit made live.
   */
  private readonly lookups = new CommitBatcher<LiveLookup>(async (lookups) => {
    const rows = await this.repository.live(lookups);
    for (const lookup of lookups) {
      lookup.rows = rows.filter((row) => row.workspace_id === lookup.workspaceId);
      const found = new Map(lookup.rows.map((row) => [row.ref, row]));
      this.recent.remember(lookup.workspaceId, lookup.refs, found);
    }
  });

  constructor(private readonly repository: PublishedTemplatesRepository) {}

  /** The template's live version in the language served (see `pinAll`). */
  async pin(workspaceId: string, ref: TemplateRef): Promise<PinnedTemplate> {
    const [pinned] = await this.pinAll(workspaceId, [ref]);
    return pinned;
  }

  /**
   * Each ref's live version, in order, with one query for all of them (and one for content not
   * yet compiled). Throws one error for every ref that cannot be pinned: unknown
   * (`TemplateUnknownError`), never published, language required or unavailable.
   * `recent`: pin from the live versions last read when every ref has one, with no query; each
   * pin then carries the `guard` its insert must check. Any problem pins afresh.
   */
  async pinAll(
    workspaceId: string,
    refs: TemplateRef[],
    options: { recent?: boolean } = {},
  ): Promise<PinnedTemplate[]> {
    const names = [...new Set(refs.map(nameOf))];
    if (options.recent) {
      const rows = names.map((name) => this.recent.get(workspaceId, name));
      if (rows.every((row) => row !== undefined)) {
        const byRef = new Map(names.map((name, index) => [name, rows[index]]));
        try {
          return await this.pinRows(
            workspaceId,
            refs.map((ref) => [ref, byRef.get(nameOf(ref))]),
            true,
          );
        } catch {
          // A refusal, or content gone with a deleted template: the row may be stale either way,
          // and only the lookup below can say.
        }
      }
    }
    const lookup: LiveLookup = { workspaceId, refs: names, rows: [] };
    await this.lookups.add(lookup);
    const byRef = new Map(lookup.rows.map((row) => [row.ref, row]));
    return this.pinRows(
      workspaceId,
      refs.map((ref) => [ref, byRef.get(nameOf(ref))]),
      false,
    );
  }

  /**
   * What pinning a published version reads, as plain JSON to keep beside what pinned it (a
   * broadcast): then the version can go with its template and `pinSnapshot` still pins it.
   * Undefined for a draft or an unknown version.
   */
  async snapshot(
    workspaceId: string,
    templateId: string,
    versionId: string,
    runner?: SqlRunner,
  ): Promise<TemplateVersionSnapshot | undefined> {
    const row = await this.repository.withVersion(workspaceId, templateId, versionId, runner);
    if (!row?.version_id || !row.languages?.length) return undefined;
    const pairs = row.languages.map((language) => ({ versionId, language }));
    return { row, contents: await this.repository.contents(workspaceId, pairs, runner) };
  }

  /** A version kept by `snapshot`, pinned as `pinVersion` would have pinned it then. */
  async pinSnapshot(
    workspaceId: string,
    snapshot: TemplateVersionSnapshot,
    ref: Omit<TemplateRef, 'id' | 'slug'> = {},
  ): Promise<PinnedTemplate> {
    const entry: [TemplateRef, LiveTemplateRow] = [{ ...ref, id: snapshot.row.id }, snapshot.row];
    const [pinned] = await this.pinRows(workspaceId, [entry], false, snapshot.contents);
    return pinned;
  }

  /**
   * A published version fixed earlier (a broadcast resumed after a restart), live or not;
   * `TemplateNotPublishedError` for a draft or an unknown version.
   */
  async pinVersion(
    workspaceId: string,
    templateId: string,
    versionId: string,
    ref: Omit<TemplateRef, 'id' | 'slug'> = {},
  ): Promise<PinnedTemplate> {
    const row = await this.repository.withVersion(workspaceId, templateId, versionId);
    const [pinned] = await this.pinRows(workspaceId, [[{ ...ref, id: templateId }, row]], false);
    return pinned;
  }

  /** The compiled language of a version, from the cache or freshly parsed. */
  compiledOf(versionId: string, language: string): CompiledLanguage | undefined {
    const key = `${versionId} ${language}`;
    const hit = this.compiled.get(key);
    if (hit) {
      this.compiled.delete(key);
      this.compiled.set(key, hit);
    }
    return hit;
  }

  private remember(versionId: string, language: string, compiled: CompiledLanguage): void {
    if (this.compiled.size >= COMPILED_CACHE_SIZE)
      this.compiled.delete(this.compiled.keys().next().value as string);
    this.compiled.set(`${versionId} ${language}`, compiled);
  }

  private async pinRows(
    workspaceId: string,
    entries: Array<[TemplateRef, LiveTemplateRow | undefined]>,
    guarded: boolean,
    stored?: StoredLanguageContent[],
  ): Promise<PinnedTemplate[]> {
    const errors: AppError[] = [];
    const chosen: Array<{ ref: TemplateRef; row: LiveTemplateRow; language: string }> = [];
    for (const [ref, row] of entries) {
      const param = ref.param ?? 'template';
      const name = ref.id ?? ref.slug ?? '';
      if (!row) errors.push(new TemplateUnknownError(`${param}.${ref.id ? 'id' : 'slug'}`, name));
      else if (!row.version_id || !row.default_language || !row.languages?.length)
        errors.push(new TemplateNotPublishedError(param, name));
      else {
        const choice = chooseLanguage(row.languages, row.default_language, ref.language, {
          onMissing: row.on_missing_language,
          sourceRequired: row.language_source_required,
        });
        if (choice.ok) chosen.push({ ref, row, language: choice.language });
        else if (choice.reason === 'language_required')
          errors.push(new TemplateLanguageRequiredError(`${param}.language`, name));
        else
          errors.push(
            new TemplateLanguageUnavailableError(
              `${param}.language`,
              ref.language ?? '',
              row.languages,
            ),
          );
      }
    }
    if (errors.length) throw joinTemplateErrors(errors);
    const compiled = await this.compiledFor(workspaceId, chosen, stored);
    return chosen.map(({ ref, row, language }) =>
      pinnedOf(
        ref,
        row,
        language,
        compiled.get(`${row.version_id as string} ${language}`),
        guarded ? guardOf(workspaceId, row) : null,
      ),
    );
  }

  /**
   * The compiled languages the chosen versions need, held for this call: the shared cache may
   * evict an entry while the missing ones load (other requests fill it meanwhile). Missing ones
   * come from `stored` content when given (a snapshot), else from the database.
   */
  private async compiledFor(
    workspaceId: string,
    chosen: Array<{ row: LiveTemplateRow; language: string }>,
    stored?: StoredLanguageContent[],
  ): Promise<Map<string, CompiledLanguage>> {
    const held = new Map<string, CompiledLanguage>();
    const missing = new Map<string, { versionId: string; language: string }>();
    for (const { row, language } of chosen) {
      const versionId = row.version_id as string;
      const key = `${versionId} ${language}`;
      const hit = this.compiledOf(versionId, language);
      if (hit) held.set(key, hit);
      else missing.set(key, { versionId, language });
    }
    if (missing.size === 0) return held;
    const contents = stored
      ? stored.filter((content) => missing.has(`${content.version_id} ${content.language}`))
      : await this.repository.contents(workspaceId, [...missing.values()]);
    for (const content of contents) {
      let compiled: CompiledLanguage;
      try {
        compiled = new CompiledLanguage(content);
      } catch (err) {
        // Stored content that no longer parses (a version published before its derived text
        // was checked): the send is refused, never a 500, and a broadcast fails, never retries.
        throw new AppError(EmailTemplateErrors.TemplateLiquidInvalid, {
          details: [
            {
              param: 'template',
              message: `the published ${content.language} content does not parse: ${(err as Error).message}`,
            },
          ],
        });
      }
      this.remember(content.version_id, content.language, compiled);
      held.set(`${content.version_id} ${content.language}`, compiled);
    }
    return held;
  }
}

function pinnedOf(
  ref: TemplateRef,
  row: LiveTemplateRow,
  language: string,
  compiled: CompiledLanguage | undefined,
  guard: TemplatePinGuard | null,
): PinnedTemplate {
  // A published version's content goes only with its template: deleted since it was looked up.
  if (!compiled)
    throw new TemplateUnknownError(
      `${ref.param ?? 'template'}.${ref.id ? 'id' : 'slug'}`,
      ref.id ?? ref.slug ?? '',
    );
  const prefix = `${ref.param ?? 'template'}.parameters.`;
  return {
    templateId: row.id,
    slug: row.slug,
    category: row.category,
    versionId: row.version_id as string,
    versionNumber: row.version_number,
    requestedLanguage: ref.language === undefined ? null : canonicalLanguage(ref.language),
    language,
    variables: compiled.variables.parameters,
    contactKeys: compiled.variables.contactKeys,
    usesLoop: compiled.variables.usesLoop,
    guard,
    render(values) {
      const missing = compiled.missing(values.parameters);
      if (missing.length) throw new TemplateVariableMissingError(prefix, missing);
      let rendered: RenderedTemplate;
      try {
        rendered = compiled.render(values, true);
      } catch (err) {
        const variable = undefinedVariableOf(err);
        if (variable) throw new TemplateVariableMissingError(prefix, [variable]);
        throw new AppError(EmailTemplateErrors.TemplateLiquidInvalid, {
          details: [{ param: ref.param ?? 'template', message: (err as Error).message }],
        });
      }
      // Liquid can make what the source never holds (url_decode, base64_decode, \u escapes);
      // PostgreSQL stores neither a NUL nor a lone surrogate, so such content is refused here.
      const unstorable = [rendered.subject, rendered.html, rendered.text].some(
        (part) => part !== null && UNSTORABLE.test(part),
      );
      if (unstorable)
        throw new AppError(EmailTemplateErrors.TemplateLiquidInvalid, {
          details: [
            {
              param: ref.param ?? 'template',
              message:
                'the content renders a NUL character or a lone surrogate, which email cannot carry',
            },
          ],
        });
      return rendered;
    },
  };
}

function nameOf(ref: TemplateRef): string {
  return ref.id ?? ref.slug ?? '';
}
