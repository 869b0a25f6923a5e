export { renderSmsTemplate, findSmsTemplate, resolveLanguage } from './render-sms-template';
export type { RenderedSmsTemplate, SmsTemplateRef, TemplateProblem } from './render-sms-template';
export { SYSTEM_SMS_TEMPLATES } from './system-sms-templates';
export { SmsTemplatesModule } from './sms-templates.module';
