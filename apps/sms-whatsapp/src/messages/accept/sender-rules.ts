import { Injectable } from '@nestjs/common';
import { phoneNumber, SmsErrors } from '@switchboard/contracts';
import type { SmsCategory } from '@switchboard/contracts';
import { AcceptRepository } from './accept.repository';
import type { HeldSender } from './accept.repository';
import { sendProblemsError } from './send-request.normaliser';
import type { NormalisedSend, SendProblem } from './send-request.normaliser';
import type { OutboundSms } from './sms-draft';
import { renderTemplateSend } from './template-send';

/**
 * The rules of a send that need the workspace's data: a template rendered (it brings the body
 * and category), the sender held by the workspace and registered for the category. One lookup
 * for a whole batch; every problem of every item is answered in one 422.
 */
@Injectable()
export class SenderRules {
  constructor(private readonly repository: AcceptRepository) {}

  async resolve(
    workspaceId: string,
    sends: NormalisedSend[],
    batchParam: string,
  ): Promise<OutboundSms[]> {
    const prefix = (index: number) => (batchParam ? `${batchParam}[${index}].` : '');
    const problems: SendProblem[] = [];
    const drafts = sends.map((send, index) => {
      if (!send.template)
        return {
          ...send,
          from: senderSpelling(send.from as string),
          text: send.text as string,
          category: send.category as SmsCategory,
        };
      const rendered = renderTemplateSend(send, prefix(index));
      if (!rendered.ok) problems.push(...rendered.problems);
      return rendered.ok ? rendered.value : undefined;
    });
    if (problems.length > 0) throw sendProblemsError(problems);
    const ready = drafts as Array<OutboundSms & { from?: string }>;
    // A template selects its sender: the workspace's number, or a sender ID for its category.
    const byCategory = new Map<string, Promise<string | undefined>>();
    for (const [index, sms] of ready.entries()) {
      if (sms.from) continue;
      if (!byCategory.has(sms.category))
        byCategory.set(sms.category, this.repository.defaultSender(workspaceId, sms.category));
      const sender = await byCategory.get(sms.category);
      if (sender) sms.from = sender;
      else
        problems.push({
          param: `${prefix(index)}template`,
          message: `the workspace holds no SMS number and no sender ID registered for ${sms.category} messages to send this template from`,
          code: SmsErrors.SMSNoEligibleSender,
        });
    }
    if (problems.length > 0) throw sendProblemsError(problems);
    const held = new Map<string, HeldSender>();
    const found = await this.repository.heldSenders(workspaceId, [
      ...new Set(ready.map((sms) => sms.from)),
    ]);
    for (const sender of found)
      if (!held.has(sender.sender) || sender.kind === 'number') held.set(sender.sender, sender);
    ready.forEach((sms, index) => {
      const sender = held.get(sms.from);
      const param = `${prefix(index)}from`;
      if (!sender)
        problems.push({
          param,
          message: `${sms.from} is not a number the workspace holds with the sms capability, nor a sender ID registered for it`,
          code: SmsErrors.SMSSenderNotConfigured,
        });
      else if (sender.categories && !sender.categories.includes(sms.category))
        problems.push({
          param: `${prefix(index)}category`,
          message: `the sender ${sms.from} is registered for ${sender.categories.join(', ')} messages, not ${sms.category}`,
          code: SmsErrors.SenderCategoryNotPermitted,
        });
    });
    if (problems.length > 0) throw sendProblemsError(problems);
    return ready;
  }
}

/**
 * How a sender is stored: a number in E.164 (`+` kept or added to a long run of digits), a short
 * code or a sender ID exactly as given.
 */
export function senderSpelling(from: string): string {
  if (/^\+/.test(from) || /^\d{9,15}$/.test(from)) return phoneNumber(from) ?? from;
  return from;
}
