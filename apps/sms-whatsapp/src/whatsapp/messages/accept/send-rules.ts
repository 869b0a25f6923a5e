import { Injectable } from '@nestjs/common';
import { WhatsAppMessagesErrors, WhatsAppTemplatesErrors } from '@switchboard/contracts';
import type {
  ErrorCode,
  WhatsAppRecipient,
  WhatsAppSendContent,
  WhatsAppSendDraft,
  WhatsAppTemplateSend,
} from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { numberSends } from '../../numbers/sending-statuses';
import { WhatsAppNumbersRepository } from '../../numbers';
import type { WhatsAppNumberRow } from '../../numbers';
import { TemplateCatalog } from '../../templates';
import type { ResolvedTemplate } from '../../templates';
import { WhatsAppAcceptRepository } from './accept.repository';
import { RecentLookups } from './recent-lookups';
import { checkTemplateParameters, checkTemplateRecipient, toGraphMessage } from '../../content';
import type { OutboundWhatsApp } from './whatsapp-draft';

const DAY_MS = 86_400_000;
/** Meta's message ids are kept 15 days: an older message cannot be quoted. */
const QUOTABLE_MS = 15 * DAY_MS;

/** The contact a recipient names: its E.164 number or its business-scoped user id. */
const contactOf = (to: WhatsAppRecipient) =>
  to.kind === 'phone_number' ? to.phoneNumber : to.bsuid;

/** Free-form content as it reads back: a text's `preview_url` is not returned. */
function readShape(content: WhatsAppSendContent): unknown {
  if (content.kind === 'text') return { body: content.text.body };
  return (content as unknown as Record<string, unknown>)[content.kind];
}

/**
 * The rules of a send after its content's: the sender (`from`, a connected number of the
 * workspace), the template (resolved in the sender's account, its parameters checked) or, for
 * free-form content, the open service window, and the quoted message. All reads: nothing is
 * written until every rule passed.
 */
@Injectable()
export class WhatsAppSendRules {
  private readonly senders = new RecentLookups<WhatsAppNumberRow>();
  private readonly resolved = new RecentLookups<ResolvedTemplate>();

  constructor(
    private readonly numbers: WhatsAppNumbersRepository,
    private readonly templates: TemplateCatalog,
    private readonly repository: WhatsAppAcceptRepository,
  ) {}

  async resolve(workspaceId: string, send: WhatsAppSendDraft): Promise<OutboundWhatsApp> {
    const sender = await this.sender(workspaceId, send.from);
    const replyToWamid = send.inReplyToMessageId
      ? await this.replyWamid(workspaceId, sender, send.to, send.inReplyToMessageId)
      : undefined;
    const base = {
      numberId: sender.id,
      businessPhone: sender.phone_number,
      businessAccount: sender.waba,
      to: send.to,
      inReplyToMessageId: send.inReplyToMessageId ?? null,
      tags: send.tags,
      metadata: send.metadata,
    };
    const target = { to: contactOf(send.to), replyToWamid };
    const { content } = send;
    if (content.kind !== 'template') {
      if (!(await this.repository.windowOpen(sender.id, [contactOf(send.to)])))
        throw refuse(
          WhatsAppMessagesErrors.WhatsAppServiceWindowClosed,
          content.kind,
          `${contactOf(send.to)} has not written to ${sender.phone_number} in the last 24 hours: send a template.`,
        );
      return {
        ...base,
        contentKind: content.kind,
        content: readShape(content),
        freeForm: true,
        category: null,
        templateId: null,
        templateVersionId: null,
        templateLanguage: null,
        graph: toGraphMessage(content, target),
      };
    }
    const template = await this.template(workspaceId, sender, content.template);
    checkTemplateRecipient(template.category, send.to);
    checkTemplateParameters(template.components, content.template.components);
    return {
      ...base,
      contentKind: 'template',
      content: {
        slug: template.metaName,
        category: template.category,
        language: template.languageTag,
        components: content.template.components ?? [],
      },
      freeForm: false,
      category: template.category,
      templateId: template.templateId,
      templateVersionId: template.versionId,
      templateLanguage: template.languageTag,
      graph: toGraphMessage(content, {
        ...target,
        template: {
          name: template.metaName,
          language: template.language,
          components: template.components,
        },
      }),
    };
  }

  private async sender(workspaceId: string, from: string | undefined): Promise<WhatsAppNumberRow> {
    if (!from)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppSenderRequired,
        'from',
        'Name the WhatsApp number to send from, in E.164.',
      );
    const sender = await this.senders.get(`${workspaceId} ${from}`, () =>
      this.numbers.findSender(workspaceId, from),
    );
    if (!sender)
      throw refuse(
        WhatsAppMessagesErrors.WhatsAppSenderNotFound,
        'from',
        `The workspace has no WhatsApp number ${from}.`,
      );
    if (!numberSends(sender.status))
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
    given: WhatsAppTemplateSend,
  ): Promise<ResolvedTemplate> {
    const ref = given.id ?? given.slug ?? '';
    try {
      const key = `${workspaceId} ${sender.business_account_id} ${ref} ${given.language ?? ''}`;
      return (await this.resolved.get(key, () =>
        this.templates.resolveForSend(workspaceId, ref, given.language, sender.business_account_id),
      )) as ResolvedTemplate;
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
