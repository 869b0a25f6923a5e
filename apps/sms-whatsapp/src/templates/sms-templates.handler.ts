import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { SmsRulesErrors, SmsTemplateSubjects } from '@switchboard/contracts';
import type {
  GetSmsTemplateRequest,
  ListSmsTemplatesRequest,
  SmsTemplate,
  SmsTemplateList,
} from '@switchboard/contracts';
import { AppError, Handles } from '@switchboard/platform';
import { canonicalLanguage, findSmsTemplate } from './render-sms-template';
import { toSmsTemplateDto } from './sms-template.mapper';
import { SYSTEM_SMS_TEMPLATES } from './system-sms-templates';

/** The read-only template catalog: the same shipped set for every workspace. */
@Controller()
export class SmsTemplatesHandler {
  @Handles(SmsTemplateSubjects.List)
  list(@Payload() input: ListSmsTemplatesRequest): SmsTemplateList {
    // Every SMS template is `system`: `scope=workspace` matches none.
    if (input.scope === 'workspace') return { data: [] };
    const language = input.language === undefined ? undefined : canonicalLanguage(input.language);
    const data = SYSTEM_SMS_TEMPLATES.filter(
      (template) =>
        (input.category === undefined || template.category === input.category) &&
        (language === undefined || template.bodies[language] !== undefined),
    ).map(toSmsTemplateDto);
    return { data };
  }

  @Handles(SmsTemplateSubjects.Get)
  get(@Payload() input: GetSmsTemplateRequest): SmsTemplate {
    const template = findSmsTemplate(input.template_ref);
    if (!template)
      throw new AppError(SmsRulesErrors.SmsTemplateNotFound, { param: 'template_ref' });
    return toSmsTemplateDto(template);
  }
}
