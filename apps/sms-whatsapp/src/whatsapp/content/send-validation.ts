import {
  CommonErrors,
  phoneNumber,
  WHATSAPP_CONTENT_KINDS,
  WHATSAPP_CONTENT_LIMITS as L,
  WHATSAPP_SEND_FIELDS,
  WhatsAppContentErrors,
} from '@switchboard/contracts';
import type {
  WhatsAppContentKind,
  WhatsAppRecipient,
  WhatsAppSendContent,
  WhatsAppSendDraft,
} from '@switchboard/contracts';
import { contentProblemsError, isObject, problemCollector } from './content-problems';
import type { Report } from './content-problems';
import { checkContactCards } from './contact-cards.rules';
import { checkInteractive } from './interactive.rules';
import { checkLocation, checkMediaContent, checkTextContent } from './simple-content.rules';
import { checkTemplateSend } from './template.rules';

/** A business-scoped user ID: a country code, a dot and Meta's ID (`US.13491208655302741918`). */
const BSUID = /^[A-Z]{2}\.[A-Za-z0-9]{1,128}$/;
const TAG_PART = /^[A-Za-z0-9_-]+$/;
const INVALID = CommonErrors.ValidationError;

/** `to` as a phone number (E.164, normalised) or a BSUID, or undefined (reported). */
export function parseRecipient(value: unknown, report: Report): WhatsAppRecipient | undefined {
  const code = WhatsAppContentErrors.WhatsAppInvalidRecipient;
  if (value === undefined || value === null || value === '')
    return void report(
      'to',
      'is required: a phone number in E.164 or a business-scoped user ID',
      code,
    );
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (BSUID.test(trimmed)) return { kind: 'bsuid', bsuid: trimmed };
    const e164 = trimmed.length <= 32 ? phoneNumber(trimmed) : undefined;
    if (e164) return { kind: 'phone_number', phoneNumber: e164 };
  }
  report(
    'to',
    'must be a phone number in E.164 (+31612345678) or a business-scoped user ID (US.13491208655302741918)',
    code,
  );
  return undefined;
}

function checkContent(
  kind: WhatsAppContentKind,
  value: unknown,
  report: Report,
): WhatsAppSendContent | undefined {
  const checked = (() => {
    switch (kind) {
      case 'template':
        return checkTemplateSend(value, report);
      case 'text':
        return checkTextContent(value, report);
      case 'image':
      case 'video':
      case 'audio':
      case 'sticker':
      case 'document':
        return checkMediaContent(kind, value, report);
      case 'location':
        return checkLocation(value, 'location', report);
      case 'interactive':
        return checkInteractive(value, report);
      case 'contact_cards':
        return checkContactCards(value, report);
    }
  })();
  return checked === undefined ? undefined : ({ kind, [kind]: checked } as WhatsAppSendContent);
}

function checkTags(value: unknown, report: Report): WhatsAppSendDraft['tags'] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    report('tags', 'must be a list of {name, value}', INVALID);
    return [];
  }
  if (value.length > L.tags) report('tags', `must hold at most ${L.tags} tags`, INVALID);
  const names = new Set<string>();
  return value.flatMap((tag: unknown, index) => {
    const at = `tags[${index}]`;
    if (!isObject(tag)) {
      report(at, 'must be an object {name, value}', INVALID);
      return [];
    }
    const part = (key: 'name' | 'value', max: number) => {
      const given = tag[key];
      if (typeof given !== 'string' || given.length === 0)
        report(`${at}.${key}`, 'must be a non-empty string', INVALID);
      else if (given.length > max)
        report(`${at}.${key}`, `must be at most ${max} characters`, INVALID);
      else if (!TAG_PART.test(given))
        report(`${at}.${key}`, 'may hold ASCII letters, digits, _ and - only', INVALID);
      else return given;
      return undefined;
    };
    const name = part('name', L.tagName);
    const tagValue = part('value', L.tagValue);
    for (const key of Object.keys(tag))
      if (key !== 'name' && key !== 'value')
        report(`${at}.${key}`, 'is not a field of a tag', INVALID);
    if (name !== undefined && names.has(name))
      report(`${at}.name`, `repeats the tag name ${name}: tag names are unique`, INVALID);
    if (name !== undefined) names.add(name);
    return name !== undefined && tagValue !== undefined ? [{ name, value: tagValue }] : [];
  });
}

function checkMetadata(value: unknown, report: Report): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    report('metadata', 'must be a JSON object', INVALID);
    return {};
  }
  if (Buffer.byteLength(JSON.stringify(value)) > L.metadataBytes)
    report('metadata', `must be at most ${L.metadataBytes} bytes serialized`, INVALID);
  return value;
}

/**
 * The content rules of `POST /v1/whatsapp/messages`: exactly one content kind, the recipient,
 * every rule of the content's arm, tags and metadata. Throws one 422 naming every problem.
 * The sender, the service window, the quoted message and the template's own parameters
 * (`checkTemplateParameters`) are decided after, by the send.
 */
export function validateWhatsAppSend(body: unknown): WhatsAppSendDraft {
  const { problems, report } = problemCollector();
  if (!isObject(body)) {
    report('body', 'must be a JSON object', INVALID);
    throw contentProblemsError(problems);
  }
  for (const key of Object.keys(body))
    if (!(WHATSAPP_SEND_FIELDS as readonly string[]).includes(key))
      report(key, 'is not a field of a WhatsApp send', INVALID);
  const kinds = WHATSAPP_CONTENT_KINDS.filter(
    (kind) => body[kind] !== undefined && body[kind] !== null,
  );
  if (kinds.length === 0)
    report(
      'body',
      `must carry one content field: one of ${WHATSAPP_CONTENT_KINDS.join(', ')}`,
      WhatsAppContentErrors.WhatsAppContentRequired,
    );
  else if (kinds.length > 1)
    for (const kind of kinds)
      report(
        kind,
        `cannot be sent together with ${kinds.filter((other) => other !== kind).join(', ')}: a message carries one kind of content`,
        WhatsAppContentErrors.WhatsAppContentAmbiguous,
      );
  const to = parseRecipient(body.to, report);
  let from: string | undefined;
  if (body.from !== undefined && body.from !== null) {
    if (typeof body.from !== 'string' || body.from.trim() === '' || body.from.length > 32)
      report('from', 'must be a business phone number in E.164', INVALID);
    else from = phoneNumber(body.from) ?? body.from.trim();
  }
  let inReplyToMessageId: string | undefined;
  if (body.in_reply_to_message_id !== undefined && body.in_reply_to_message_id !== null) {
    const given = body.in_reply_to_message_id;
    // Any string: an id naming no message of the workspace is the send's 404, not a 422.
    if (typeof given !== 'string' || given.trim() === '' || given.length > 128)
      report('in_reply_to_message_id', 'must be a WhatsApp message id (wam_...)', INVALID);
    else inReplyToMessageId = given;
  }
  const content = kinds.length === 1 ? checkContent(kinds[0], body[kinds[0]], report) : undefined;
  const tags = checkTags(body.tags, report);
  const metadata = checkMetadata(body.metadata, report);
  if (problems.length > 0 || !to || !content) throw contentProblemsError(problems);
  return {
    to,
    ...(from !== undefined && { from }),
    content,
    ...(inReplyToMessageId !== undefined && { inReplyToMessageId }),
    tags,
    metadata,
  };
}
