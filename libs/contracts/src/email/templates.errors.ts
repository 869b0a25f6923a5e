import { codesOf } from '../errors/error-definition';
import type { ErrorDefinition } from '../errors/error-definition';

/**
 * Error codes of email templates and sends by template (E01120-E01129, E01160-E01169,
 * E04110-E04114, E06030-E06034). The 422s are validation errors, so their `details` name each
 * problem.
 */
export const EmailTemplateErrorCatalog = {
  E01120: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateLanguageIncomplete',
    message: 'A language of the draft has no subject or no body.',
    description:
      'Every language of a version is sent on its own, so each one needs a `subject` and a body (`html` or `text`) before the draft can be submitted. A submit checks every language at once and lists each gap in `details` (`param` is `languages.<tag>.subject` or `languages.<tag>.html`); nothing is frozen while any remains. Save the missing fields with `PUT` or `PATCH …/versions/{version_id}/languages/{language}`, or remove the language.',
  },
  E01121: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateDefaultLanguageMissing',
    message: 'The default language is not one of the draft languages.',
    description:
      "A version's `default_language` is what a send uses when it names no language and the last resort of a fallback, so it has to be one of the languages the version holds. Add content for it first, or change `default_language` with `PATCH /v1/email/templates/{template_ref}` to a language the draft has. The default language itself cannot be deleted from the draft.",
  },
  E01122: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateDraftUnchanged',
    message: 'The draft holds nothing new to submit.',
    description:
      'A submit freezes the draft into a new version, so a draft identical to the live version (or one with no languages at all) is refused rather than creating a version that changes nothing. Edit a language, or the default language, then submit again.',
  },
  E01123: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateLiquidInvalid',
    message: 'The template content is not valid or not supported Liquid.',
    description:
      'Templates are written in Liquid. A submit, a preview of content and a send refuse markup that does not parse, and these constructs: partial includes (`{% include %}`, `{% render %}`), the `increment`, `decrement` and `ifchanged` tags, the `money`, `format_date`, `format_time`, `json`, `inspect` and `type` filters, comparisons against `empty` or `blank` (use `.size == 0`), and blocks nested more than 20 deep. `details` name the language and field, and the message says what to change.',
  },
  E01124: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateNotPublished',
    message: 'The template has no published version to send.',
    description:
      'Sends use the live version of a template, which exists once a draft was submitted (`POST …/versions/{version_id}/submit`). A template that was never published cannot be sent or used by a broadcast. Nothing was queued.',
  },
  E01125: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateVariableMissing',
    message: 'A variable the template uses has no value.',
    description:
      'A send must give a value in `template.parameters` for every variable the language it is sent in uses (the version lists them in `variables`). `details` name each missing one (`template.parameters.<name>`, or `messages[i].template.parameters.<name>` in a batch). Nothing was queued: a batch with one such message accepts none.',
  },
  E01126: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateLanguageRequired',
    message: 'The template requires every send to name a language.',
    description:
      'The template sets `language_source_required`, so a send has to name `template.language` instead of being served the default language, and a broadcast, which names none, cannot use it. Name the language, or turn the setting off with `PATCH /v1/email/templates/{template_ref}`.',
  },
  E01127: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateLanguageUnavailable',
    message: 'The template has no content in the requested language.',
    description:
      "The template sets `on_missing_language` to `fail`, and its live version holds neither the requested language nor a broader form of it (`pt` for `pt-BR`; a sibling such as `pt-PT` never counts). Read the template's `available_languages`, send one of them, or set `on_missing_language` to `fallback` to be served the closest match or the default language.",
  },
  E01128: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateUnknown',
    message: 'The send names a template this workspace does not have.',
    description:
      "A send by `template` names it by `id` (`emt_…`) or `slug`; neither matched a template of the workspace of the credential (a template of another workspace is never visible). `details` name the field (`template.id` or `template.slug`, `messages[i].template…` in a batch). Nothing was queued. List the workspace's templates with `GET /v1/email/templates`.",
  },
  E01129: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateDefaultLanguageNotRemovable',
    message: 'The default language cannot be removed from the draft.',
    description:
      'Sends and fallbacks end on the default language, so the draft always keeps it. Make another language the default first (`PATCH /v1/email/templates/{template_ref}` with `default_language`), then delete this one.',
  },
  E01160: {
    status: 422,
    type: 'validation_error',
    name: 'TemplateVersionNotDraft',
    message: 'Only the draft version can be changed; this version is published.',
    description:
      "A published version is permanent history: its languages cannot be saved, patched or deleted, and it cannot be discarded or submitted. `details` names the `version_id`. Edit the template's draft (`draft_version_id` on the template) instead, or make a published version live again with `POST …/versions/{version_id}/rollback`.",
  },
  E04110: {
    status: 404,
    type: 'not_found_error',
    name: 'EmailTemplateNotFound',
    message: 'The email template does not exist.',
    description:
      'No email template with this id or slug exists in the workspace of the credential. A template of another workspace is never visible, and a deleted template is gone together with its versions (its slug may be reused).',
  },
  E04111: {
    status: 404,
    type: 'not_found_error',
    name: 'EmailTemplateVersionNotFound',
    message: 'The template version does not exist.',
    description:
      "No version with this id belongs to the template. Read the template's `draft_version_id` and `live_version_id`, or list its versions with `GET /v1/email/templates/{template_ref}/versions`.",
  },
  E04112: {
    status: 404,
    type: 'not_found_error',
    name: 'EmailTemplateLanguageNotFound',
    message: 'The version does not hold this language.',
    description:
      'The version has no content in this language. List its languages with `GET …/versions/{version_id}/languages`; a language is created on the draft with `PUT …/languages/{language}`.',
  },
  E04113: {
    status: 404,
    type: 'not_found_error',
    name: 'PreviewContactNotFound',
    message: 'The contact to preview for does not exist.',
    description:
      'A preview with `contact` fills `bird.contact.*` from that contact, which has to exist in the workspace of the credential. Preview without `contact`, or with sample values in `parameters.bird.contact`.',
  },
  E06030: {
    status: 409,
    type: 'conflict_error',
    name: 'EmailTemplateSlugTaken',
    message: 'Another template of this workspace already has this slug.',
    description:
      'A slug names one template per workspace and never changes. Pick another slug, or read the existing template with `GET /v1/email/templates/{slug}`. A deleted template frees its slug.',
  },
  E06031: {
    status: 409,
    type: 'conflict_error',
    name: 'EmailTemplateRevisionConflict',
    message: 'The draft changed since the revision you sent.',
    description:
      "Template updates, rollbacks and submits with `expected_revision` carry the draft's `revision` so concurrent edits are caught. Another change moved the draft on: read the template again for its current `revision`, check the edit still applies, and retry.",
  },
  E06032: {
    status: 409,
    type: 'conflict_error',
    name: 'EmailTemplateLanguageRevisionConflict',
    message: 'The language changed since the revision you sent.',
    description:
      'A language save with `revision` is refused once that language moved on, so a concurrent edit is not overwritten. Read the language again (`GET …/languages/{language}`), merge, and save with its new `revision`; omit `revision` to overwrite unconditionally.',
  },
  E06033: {
    status: 409,
    type: 'conflict_error',
    name: 'EmailTemplateVersionFrozen',
    message: 'The version is published and cannot be changed this way.',
    description:
      'A rollback names the draft: only a published version can be made live again. (Editing, submitting or discarding a published version answers `422` [E01160](/v1/docs/pages?slug=errors/E01160), as the SDK documents.)',
  },
  E06034: {
    status: 409,
    type: 'conflict_error',
    name: 'EmailTemplateInUse',
    message: 'A broadcast still uses this template.',
    description:
      'A `scheduled` or `accepted` broadcast has not pinned the version it will send yet, so the template cannot be deleted while one uses it (a sending broadcast kept a copy of its version and does not block). List them with `GET /v1/email/templates/{template_ref}/broadcasts`, cancel or send them, then delete.',
  },
} as const satisfies Record<string, ErrorDefinition>;

/** The codes by name, for throw sites: `new AppError(EmailTemplateErrors.EmailTemplateNotFound)`. */
export const EmailTemplateErrors = codesOf(EmailTemplateErrorCatalog);
