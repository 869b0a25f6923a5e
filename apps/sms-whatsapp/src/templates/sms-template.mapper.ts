import type { SmsTemplate } from '@switchboard/contracts';
import type { SystemSmsTemplate } from './system-sms-templates';

/** A shipped template as the API shows it: live in every language, unversioned, never stored. */
export function toSmsTemplateDto(template: SystemSmsTemplate): SmsTemplate {
  const languages = Object.keys(template.bodies);
  return {
    id: template.id,
    slug: template.slug,
    name: template.name,
    description: template.description,
    scope: 'system',
    status: 'active',
    category: template.category,
    body: template.bodies[template.defaultLanguage],
    variables: template.variables.map((variable) => ({
      key: variable.key,
      type: variable.type.name,
      required: variable.required,
      constraint: variable.constraint,
      ...(variable.sensitive ? { sensitive: true } : {}),
    })),
    default_language: template.defaultLanguage,
    available_languages: languages,
    languages: Object.fromEntries(languages.map((language) => [language, { status: 'live' }])),
    on_missing_language: 'fallback',
    language_source_required: false,
    draft_version_id: null,
    live_version_id: null,
    published_version_id: null,
    revision: null,
    last_submitted_at: null,
    created_at: null,
    updated_at: null,
  };
}
