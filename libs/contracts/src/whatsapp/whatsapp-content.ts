import type { WhatsAppMessage, WhatsappSendParams } from '@messagebird/sdk';

/*
 * A WhatsApp message's content, as the SDK shapes it: our contract IS the SDK's shape
 * (`WhatsappSendParams` for a send, `WhatsAppMessage` for what is read back).
 */

export type WhatsAppSendRequest = WhatsappSendParams;

/** The fields that carry content: a send carries exactly one of them. */
export const WHATSAPP_CONTENT_KINDS = [
  'template',
  'text',
  'image',
  'video',
  'audio',
  'sticker',
  'document',
  'location',
  'interactive',
  'contact_cards',
] as const;
export type WhatsAppContentKind = (typeof WHATSAPP_CONTENT_KINDS)[number];

/** Every top-level field of `POST /v1/whatsapp/messages`. */
export const WHATSAPP_SEND_FIELDS = [
  'to',
  'from',
  ...WHATSAPP_CONTENT_KINDS,
  'in_reply_to_message_id',
  'tags',
  'metadata',
] as const satisfies ReadonlyArray<keyof WhatsAppSendRequest>;

/** One send's content, tagged with its kind: `{kind: 'text', text: {body}}`. */
export type WhatsAppSendContent = {
  [K in WhatsAppContentKind]: { kind: K } & { [F in K]-?: NonNullable<WhatsAppSendRequest[F]> };
}[WhatsAppContentKind];

export type WhatsAppTemplateSend = NonNullable<WhatsAppSendRequest['template']>;
export type WhatsAppTemplateComponentSend = NonNullable<WhatsAppTemplateSend['components']>[number];
export type WhatsAppTemplateParameterSend = NonNullable<
  WhatsAppTemplateComponentSend['parameters']
>[number];
export type WhatsAppInteractiveSend = NonNullable<WhatsAppSendRequest['interactive']>;
export type WhatsAppContactCardSend = NonNullable<WhatsAppSendRequest['contact_cards']>[number];
export type WhatsAppLocationSend = NonNullable<WhatsAppSendRequest['location']>;

/** Where a send goes: a phone number (E.164) or a business-scoped user ID (`US.1349...`). */
export type WhatsAppRecipient =
  { kind: 'phone_number'; phoneNumber: string } | { kind: 'bsuid'; bsuid: string };

/** A send after the content rules (sender, window and template resolution come after). */
export interface WhatsAppSendDraft {
  to: WhatsAppRecipient;
  /** As given (normalised to E.164 when it parses as one); the sender rules decide on it. */
  from?: string;
  content: WhatsAppSendContent;
  inReplyToMessageId?: string;
  tags: Array<{ name: string; value: string }>;
  metadata: Record<string, unknown>;
}

/** The content arms of a message as it is read back (`WhatsAppMessage`). */
export type WhatsAppMessageContent = Partial<
  Pick<
    WhatsAppMessage,
    | 'template'
    | 'text'
    | 'image'
    | 'video'
    | 'audio'
    | 'sticker'
    | 'document'
    | 'location'
    | 'contact_cards'
    | 'interactive'
    | 'interactive_reply'
    | 'unsupported'
  >
>;

/** What an inbound message carried, and the wamid it quotes (matched to our id by the caller). */
export interface WhatsAppInboundContent {
  content: WhatsAppMessageContent;
  replyToWamid?: string;
}

/** The limits of WhatsApp content (SDK comments, then the API reference where the SDK is silent). */
export const WHATSAPP_CONTENT_LIMITS = {
  textBody: 4096,
  caption: 1024,
  filename: 240,
  placeName: 1000,
  placeAddress: 1000,
  url: 2000,
  headerText: 60,
  bodyText: 1024,
  listBodyText: 4096,
  footerText: 60,
  buttonLabel: 20,
  buttons: 3,
  buttonSlug: 256,
  listButtonText: 20,
  sections: 10,
  sectionTitle: 24,
  rows: 10,
  rowLabel: 24,
  rowSlug: 200,
  rowDescription: 72,
  cardsMin: 2,
  cardsMax: 10,
  cardBodyText: 160,
  cardBodyLineBreaks: 2,
  contactCards: 5,
  contactEntries: 10,
  nameLong: 256,
  namePart: 64,
  orgPart: 128,
  contactField: 256,
  templateSlug: 63,
  templateLanguage: 35,
  templateComponents: 20,
  templateParameters: 100,
  templateText: 32768,
  tags: 20,
  tagName: 32,
  tagValue: 64,
  metadataBytes: 2048,
} as const;
