import { Injectable } from '@nestjs/common';
import { WhatsAppMessagesErrors, WhatsAppTemplatesErrors } from '@switchboard/contracts';
import type { ErrorCode } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { WhatsAppNumbersRepository } from '../../numbers';
import type { WhatsAppNumberRow } from '../../numbers';
import { TemplateCatalog } from '../../templates';
import type { ResolvedTemplate } from '../../templates';
import { WhatsAppAcceptRepository } from './accept.repository';
import { checkTemplateParameters, checkTemplateRecipient, toGraphMessage } from './send-content';
import type { WhatsAppRecipient, WhatsAppSendDraft } from './send-content';
import type { OutboundWhatsApp } from './whatsapp-draft';

const DAY_MS = 86_400_000;
/** Meta's message ids are kept 15 days: an older message cannot be quoted. */
const QUOTABLE_MS = 15 * DAY_MS;

type TemplateContent = {
  template: { id?: string; slug?: string; language?: string; components?: unknown[] };
};

const contactsOf = (to: WhatsAppRecipient) => [
  to.kind === 'phone_number' ? to.phoneNumber : to.bsuid,
];

/**
 * The rules of a send after its content's: the sender (`from`, a connected number of the
 * workspace), the template (resolved in the sender's account, its parameters checked) or, for
 * free-form content, the open service window, and the quoted message. All reads: nothing is
 * written until every rule passed.
 */
@Injectable()
export class WhatsAppSendRules {
  constructor(
    private readonly numbers: WhatsAppNumbersRepository,
    private readonly templates: TemplateCatalog,
    private readonly repository: WhatsAppAcceptRepository,
  ) {}

  async resolve(workspaceId: string, send: WhatsAppSendDraft): Promise<OutboundWhatsApp> {
    const sender = await this.sender(workspaceId, send.from);
    const replyWamid = send.inReplyToMessageId
      ? await this.replyWamid(workspaceId, sender, send.to, send.inReplyToMessageId)
      : undefined;
    const base = {
      numberId: sender.id,
      businessPhone: sender.phone_number,
      to: send.to,
      inReplyToMessageId: send.inReplyToMessageId ?? null,
      tags: send.tags,
      metadata: send.metadata,
    };
    const context = replyWamid ? { context: { message_id: replyWamid } } : {};
    if (send.content.kind !== 'template') {
      if (!(await this.repository.windowOpen(sender.id, contactsOf(send.to))))
        throw refuse(
          WhatsAppMessagesErrors.WhatsAppServiceWindowClosed,
          send.content.kind,
          `${contactsOf(send.to)[0]} has not written to ${sender.phone_number} in the last 24 hours: send a template.`,
        );
      const { kind, ...arm } = send.content;
      const value = arm[kind] as Record<string, unknown>;
      return {
        ...base,
        contentKind: kind,
        content: kind === 'text' ? { body: value.body } : value,
        freeForm: true,
        category: null,
        templateId: null,
        templateVersionId: null,
        templateLanguage: null,
        graph: { ...toGraphMessage(recipientOf(send.to), send.content), ...context },
      };
    }
    const given = (send.content as unknown as TemplateContent).template;
    const template = await this.template(workspaceId, sender, given);
    checkTemplateRecipient(template.category, send.to);
    checkTemplateParameters(template.components, given.components);
    return {
      ...base,
      contentKind: 'template',
      content: {
        slug: template.metaName,
        category: template.category,
        language: template.languageTag,
        components: given.components ?? [],
      },
      freeForm: false,
      category: template.category,
      templateId: template.templateId,
      templateVersionId: template.versionId,
      templateLanguage: template.languageTag,
      graph: { ...toGraphMessage(recipientOf(send.to), send.content, template), ...context },
    };
  }

  private async sender(workspaceId: string, from: string | undefined): Promise<WhatsAppNumberRow> {
    if (!from)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppSenderRequired,
        'from',
        'Name the WhatsApp number to send from, in E.164.',
      );
    const sender = await this.numbers.findSender(workspaceId, from);
    if (!sender)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppSenderNotFound,
        'from',
        `The workspace has no WhatsApp number ${from}.`,
      );
    if (sender.status !== 'connected')
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppSenderNotConnected,
        'from',
        `${from} is ${sender.status}, not connected.`,
      );
    return sender;
  }

  /** In the sender's account; found only in another account of the workspace, a mismatch. */
  private async template(
    workspaceId: string,
    sender: WhatsAppNumberRow,
    given: TemplateContent['template'],
  ): Promise<ResolvedTemplate> {
    const ref = given.id ?? given.slug ?? '';
    try {
      return await this.templates.resolveForSend(
        workspaceId,
        ref,
        given.language,
        sender.business_account_id,
      );
    } catch (err) {
      if (
        !(err instanceof AppError) ||
        err.code !== WhatsAppTemplatesErrors.WhatsAppTemplateNotFound
      )
        throw err;
      const elsewhere = await this.templates
        .resolveForSend(workspaceId, ref, given.language)
        .then(() => true)
        .catch(
          (other: unknown) =>
            other instanceof AppError &&
            other.code !== WhatsAppTemplatesErrors.WhatsAppTemplateNotFound,
        );
      if (!elsewhere) throw err;
      throw new AppError(WhatsAppMessagesErrors.WhatsAppSenderWABAMismatch, {
        param: 'from',
        details: [
          {
            param: 'from',
            message: `${sender.phone_number} is on WhatsApp Business Account ${sender.waba}.`,
          },
          {
            param: 'template',
            message: `${ref} belongs to another business account of the workspace.`,
          },
        ],
      });
    }
  }

  /** The wamid a quoted message is known to Meta by (404 and 422 per the SDK). */
  private async replyWamid(
    workspaceId: string,
    sender: WhatsAppNumberRow,
    to: WhatsAppRecipient,
    id: string,
  ): Promise<string> {
    const target = await this.repository.replyTarget(workspaceId, id);
    if (!target || Date.now() - new Date(target.created_at).getTime() > QUOTABLE_MS)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppReplyTargetNotFound,
        'in_reply_to_message_id',
        `No message ${id} of the last 15 days in this workspace.`,
      );
    const sameContact =
      to.kind === 'phone_number'
        ? target.contact_phone === to.phoneNumber
        : target.contact_bsuid === to.bsuid;
    if (target.number_id !== sender.id || !sameContact)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppReplyNotInConversation,
        'in_reply_to_message_id',
        `${id} belongs to another conversation than ${sender.phone_number} and this recipient.`,
      );
    if (!target.provider_message_id)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppReplyNotInConversation,
        'in_reply_to_message_id',
        `${id} never reached WhatsApp, so it cannot be quoted.`,
      );
    return target.provider_message_id;
  }
}

/** A refusal naming the field it is about (in `param` and in `details`). */
function refuse(code: ErrorCode, param: string, message: string): AppError {
  return new AppError(code, { message, param, details: [{ param, message }] });
}

/** Meta's `to`: a phone number's digits, or the business-scoped user id. */
function recipientOf(to: WhatsAppRecipient): string {
  return to.kind === 'phone_number' ? to.phoneNumber.replace(/^\+/, '') : to.bsuid;
}
