import { Injectable } from '@nestjs/common';
import { senderSpelling, SmsErrors } from '@switchboard/contracts';
import type { SmsCategory } from '@switchboard/contracts';
import { AcceptRepository } from './accept.repository';
import type { HeldSender } from './accept.repository';
import { sendProblemsError } from './send-request.normaliser';
import type { NormalisedSend, SendProblem } from './send-request.normaliser';
import type { OutboundSms } from './sms-draft';
import { renderTemplateSend } from './template-send';
import { senderCovers } from '../../senders/sender-rules';

/**
 * The rules of a send that need the workspace's data: a template rendered (it brings the body
 * and category), the sender held by the workspace and registered for the category. One lookup
 * for a whole batch; every problem of every item is answered in one 422.
 */
@Injectable()
export class SenderRules {
  /**
   * Senders found held in the last seconds, by workspace and sender: most sends repeat the same
   * few, and the lookup was a query per send. Only what was found is kept (a sender registered
   * a moment ago is seen at once); one released or unregistered meanwhile is caught when its
   * messages are submitted (they fail `sender_unregistered`), so the cache lets nothing out.
   */
  private readonly recent = new Map<string, { sender: HeldSender; until: number }>();

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
    const held = await this.heldSenders(workspaceId, [...new Set(ready.map((sms) => sms.from))]);
    ready.forEach((sms, index) => {
      const sender = held.get(sms.from);
      const param = `${prefix(index)}from`;
      if (!sender)
        problems.push({
          param,
          message: `${sms.from} is not a number the workspace holds with the sms capability, nor a sender ID registered for it`,
          code: SmsErrors.SMSSenderNotConfigured,
        });
      else if (!senderCovers(sender.categories, sms.category))
        problems.push({
          param: `${prefix(index)}category`,
          message: `the sender ${sms.from} is registered for ${(sender.categories ?? []).join(', ')} messages, which do not cover ${sms.category}`,
          code: SmsErrors.SenderCategoryNotPermitted,
        });
    });
    if (problems.length > 0) throw sendProblemsError(problems);
    return ready;
  }

  /** The workspace's senders among `senders`, from the recent ones or one query for the rest. */
  private async heldSenders(
    workspaceId: string,
    senders: string[],
  ): Promise<Map<string, HeldSender>> {
    const now = Date.now();
    const held = new Map<string, HeldSender>();
    const unknown: string[] = [];
    for (const sender of senders) {
      const recent = this.recent.get(`${workspaceId} ${sender}`);
      if (recent && recent.until > now) held.set(sender, recent.sender);
      else unknown.push(sender);
    }
    if (unknown.length === 0) return held;
    const found = await this.repository.heldSenders(workspaceId, unknown);
    // A number the workspace holds wins over a sender ID spelled the same.
    for (const sender of found)
      if (!held.has(sender.sender) || sender.kind === 'number') held.set(sender.sender, sender);
    if (this.recent.size > RECENT_LIMIT) this.recent.clear();
    for (const sender of unknown) {
      const found = held.get(sender);
      if (found)
        this.recent.set(`${workspaceId} ${sender}`, { sender: found, until: now + RECENT_MS });
    }
    return held;
  }
}

/** How long a sender found held is taken as held without asking again. */
const RECENT_MS = 2000;
/** Entries kept at most (many workspaces' senders); past it the cache starts again. */
const RECENT_LIMIT = 10_000;

export { senderSpelling };
