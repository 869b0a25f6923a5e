export { TemplatesModule } from './templates.module';
export {
  contactByEmail,
  propertiesOnce,
  TemplateContactsClient,
  TemplateContactsModule,
} from './template-contacts';
export { PublishedTemplatesModule } from './published-templates.module';
export { TEMPLATE_USAGE } from './template-usage';
export type { TemplateUsage } from './template-usage';
export { PublishedTemplates } from './published-templates';
export type { PinnedTemplate, TemplateRef, TemplateVersionSnapshot } from './published-templates';
export { isStaleTemplatePin } from './recent-live-templates';
export type { TemplatePinGuard } from './recent-live-templates';
export type { RenderedTemplate, TemplateValues } from './compiled-language';
export {
  joinTemplateErrors,
  TemplateLanguageRequiredError,
  TemplateLanguageUnavailableError,
  TemplateNotPublishedError,
  TemplateUnknownError,
  TemplateVariableMissingError,
} from './template-errors';
