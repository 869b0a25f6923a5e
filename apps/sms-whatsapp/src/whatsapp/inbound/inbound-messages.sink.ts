import { Inject, Injectable } from '@nestjs/common';
import { publicOriginOf } from '@switchboard/platform';
import { enqueueJobs } from '@switchboard/background';
import { newId } from '@switchboard/persistence';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { EntityManager } from 'typeorm';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { inboundMediaUrl } from '../media/inbound-media-url';
import { MEDIA_FETCH_QUEUE } from '../media/media-queues';
import { whatsappEvent } from '../messages';
import type {
  ConnectedNumber,
  InboundMessagesSink,
  MetaContact,
  MetaInboundMessage,
  MetaMessagesValue,
} from '../webhooks/meta-webhook';
import { inboundContentOf } from './inbound-content';
import { LATE_REACTIONS_QUEUE, logInboundReactions } from './inbound-reactions';
import type { LateReactionsPayload } from './inbound-reactions';
import { InboundRepository } from './inbound.repository';
import type {
  InboundMediaRow,
  InboundMessageRow,
  InboundReactionRow,
  InboundScope,
} from './inbound.repository';

type Address = Record<string, string>;

/**
 * Records the messages and reactions of one `messages` change in the webhook processor's
 * transaction: a statement per kind of row whatever the number of messages, and nothing new
 * when Meta retries the change (messages and reactions are keyed by their wamid).
 */
@Injectable()
export class InboundMessagesRecorder implements InboundMessagesSink {
  private readonly publicOrigin: string;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG) config: SmsWhatsappConfig,
    private readonly repository: InboundRepository,
  ) {
    this.publicOrigin = publicOriginOf(config);
  }

  async record(tx: EntityManager, number: ConnectedNumber, value: MetaMessagesValue) {
    const scope: InboundScope = {
      workspaceId: number.workspaceId,
      numberId: number.id,
      businessPhone: number.phoneNumber,
    };
    const business: Address = number.phoneNumber ? { phone_number: number.phoneNumber } : {};
    // Signed but malformed entries (null, a scalar) are skipped: retrying them would not help.
    const incoming = (value.messages ?? []).filter(
      (message): message is MetaInboundMessage => typeof message === 'object' && message !== null,
    );
    const reactions = incoming.filter((message) => message.type === 'reaction');
    const messages = incoming.filter((message) => message.type !== 'reaction');
    // Preferences and suppressions for WhatsApp (the preferences issue) are checked here.
    await this.recordMessages(tx, scope, business, messages, value.contacts ?? []);
    await this.recordReactions(tx, scope, business, reactions, value.contacts ?? []);
  }

  private async recordMessages(
    tx: EntityManager,
    scope: InboundScope,
    business: Address,
    messages: MetaInboundMessage[],
    contacts: MetaContact[],
  ): Promise<void> {
    if (messages.length === 0) return;
    const rows: InboundMessageRow[] = [];
    const media = new Map<string, InboundMediaRow>();
    const senders = new Map<string, Address>();
    for (const message of messages) {
      const from = senderOf(message, contacts);
      const read = inboundContentOf(message);
      const id = newId('wam');
      if (read.media) {
        const { id: mediaId, ...meta } = read.media;
        media.set(id, { id: mediaId, messageId: id, ...meta });
      }
      senders.set(id, from);
      rows.push({
        id,
        wamid: message.id,
        phone: from.phone_number ?? null,
        bsuid: from.bsuid ?? null,
        username: from.username ?? null,
        displayName: from.display_name ?? null,
        country: countryOf(from.phone_number),
        kind: read.kind,
        content: read.content,
        interactiveReply: read.interactiveReply,
        unsupported: read.unsupported,
        contextWamid: read.replyToWamid,
        at: metaTime(message.timestamp),
      });
    }
    await this.repository.openWindows(
      tx,
      scope,
      rows.flatMap((row) =>
        [row.phone, row.bsuid].flatMap((contact) => (contact ? [{ contact, at: row.at }] : [])),
      ),
    );
    const inserted = await this.repository.insertMessages(tx, scope, rows);
    if (inserted.length === 0) return;
    const replyTo = new Map(inserted.map((row) => [row.id, row.in_reply_to_message_id]));
    const fresh = rows.filter((row) => replyTo.has(row.id));
    const freshMedia = fresh.flatMap((row) => media.get(row.id) ?? []);
    await this.repository.insertMedia(tx, scope.workspaceId, freshMedia);
    await enqueueJobs(
      tx,
      'sms_whatsapp',
      freshMedia.map((item) => ({ queue: MEDIA_FETCH_QUEUE, payload: { media_id: item.id } })),
    );
    // `whatsapp.received` on each new message's timeline and on the outbox, with one id.
    await this.repository.insertEvents(
      tx,
      fresh.map((row) =>
        whatsappEvent(
          'whatsapp.received',
          {
            messageId: row.id,
            workspaceId: scope.workspaceId,
            direction: 'inbound',
            from: senders.get(row.id) ?? {},
            to: business,
            tags: [],
            metadata: {},
            inReplyToMessageId: replyTo.get(row.id),
          },
          row.at,
          { content: { [row.kind]: this.withMediaUrl(row, media.get(row.id)) } },
        ),
      ),
    );
  }

  /**
   * The event's content as a read shows it: media with its `url` (the SDK: the event carries
   * the content so a subscriber need not read the message back). The file is fetched from Meta
   * after this commit; the route answers once it is stored.
   */
  private withMediaUrl(row: InboundMessageRow, media: InboundMediaRow | undefined) {
    if (!media) return row.content;
    const content = row.content as Record<string, unknown>;
    return { ...content, url: inboundMediaUrl(this.publicOrigin, row.id, media.id) };
  }

  private async recordReactions(
    tx: EntityManager,
    scope: InboundScope,
    business: Address,
    reactions: MetaInboundMessage[],
    contacts: MetaContact[],
  ): Promise<void> {
    const rows: InboundReactionRow[] = reactions.flatMap((message) =>
      message.reaction
        ? [
            {
              id: newId('wre'),
              wamid: message.id,
              targetWamid: message.reaction.message_id,
              // Meta sends the removal of a reaction as an empty (or absent) emoji.
              emoji: message.reaction.emoji ? message.reaction.emoji : null,
              from: senderOf(message, contacts),
              at: metaTime(message.timestamp),
            },
          ]
        : [],
    );
    const unmatched = await logInboundReactions(
      tx,
      this.repository,
      scope.workspaceId,
      business,
      rows,
    );
    if (unmatched.length === 0) return;
    // Meta does not keep order: the message reacted to may come in a moment later (or our own
    // send's wamid once Meta answers it). Tried again shortly, as late statuses are.
    const payload: LateReactionsPayload = {
      workspace_id: scope.workspaceId,
      business,
      reactions: unmatched.map((row) => ({ ...row, at: row.at.toISOString() })),
    };
    await enqueueJobs(tx, 'sms_whatsapp', [
      { queue: LATE_REACTIONS_QUEUE, payload, runAt: new Date(Date.now() + 2_000) },
    ]);
  }
}

/** The person who sent `message`, with the profile `contacts[]` gives them. */
function senderOf(message: MetaInboundMessage, contacts: MetaContact[]): Address {
  const contact =
    contacts.find((c) => message.from_user_id && c.user_id === message.from_user_id) ??
    contacts.find((c) => message.from && c.wa_id === message.from);
  const address: Address = {};
  const digits = message.from || contact?.wa_id;
  if (digits) address.phone_number = digits.startsWith('+') ? digits : `+${digits}`;
  const bsuid = message.from_user_id ?? contact?.user_id;
  if (bsuid) address.bsuid = bsuid;
  if (contact?.profile?.username) address.username = contact.profile.username.replace(/^@/, '');
  if (contact?.profile?.name) address.display_name = contact.profile.name;
  return address;
}

function countryOf(phone: string | undefined): string {
  return (phone && parsePhoneNumberFromString(phone)?.country) || 'ZZ';
}

/**
 * Meta's `timestamp` (epoch seconds, as a string); now when it is missing, malformed or in the
 * future (a clock ahead of ours must not stretch the 24-hour window, nor a bad value fail the
 * change for ever).
 */
function metaTime(timestamp: string): Date {
  const seconds = Number(timestamp);
  const now = Date.now();
  return Number.isFinite(seconds) && seconds > 0 && seconds * 1000 <= now
    ? new Date(seconds * 1000)
    : new Date(now);
}
