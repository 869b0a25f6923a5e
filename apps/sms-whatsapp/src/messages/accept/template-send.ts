import { SmsErrors } from '@switchboard/contracts';
import { renderSmsTemplate } from '../../templates';
import type { NormalisedSend, SendProblem } from './send-request.normaliser';
import type { OutboundSms } from './sms-draft';

/**
 * A template send's body and category from the template (the sender is chosen afterwards);
 * its problems under `SMSTemplateInvalid`, named from the send's body.
 */
export function renderTemplateSend(
  send: NormalisedSend,
  prefix: string,
): { ok: true; value: OutboundSms } | { ok: false; problems: SendProblem[] } {
  const template = send.template as NonNullable<NormalisedSend['template']>;
  const rendered = renderSmsTemplate(template.ref, template.language, template.parameters);
  if (!rendered.ok)
    return {
      ok: false,
      problems: rendered.problems.map((problem) => ({
        param: `${prefix}${problem.param}`,
        message: problem.message,
        code: SmsErrors.SMSTemplateInvalid,
      })),
    };
  return {
    ok: true,
    value: {
      to: send.to,
      // Only another service's system send names its sender (the API refuses from with template).
      from: send.from ?? '',
      text: rendered.text,
      category: rendered.category,
      smartEncoding: send.smartEncoding,
      tags: send.tags,
      metadata: send.metadata,
      templateId: rendered.template_id,
      templateLanguage: rendered.language,
      ...(rendered.stored_text !== rendered.text ? { redactedText: rendered.stored_text } : {}),
    },
  };
}
