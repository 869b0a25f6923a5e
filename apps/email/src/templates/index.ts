export { TemplatesModule } from './templates.module';
export { PublishedTemplates } from './published-templates';
export type { PinnedTemplate, TemplateRef } from './published-templates';
export type { RenderedTemplate, TemplateValues } from './compiled-language';
export {
  TemplateLanguageRequiredError,
  TemplateLanguageUnavailableError,
  TemplateNotPublishedError,
  TemplateUnknownError,
  TemplateVariableMissingError,
} from './template-errors';
