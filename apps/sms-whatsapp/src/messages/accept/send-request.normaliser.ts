import {
  measureSms,
  routablePhoneNumber,
  SMS_CATEGORIES,
  SMS_MAX_SEGMENTS,
  SMS_PREVIEW_FIELDS,
  SmsErrors,
  CommonErrors,
} from '@switchboard/contracts';
import type { ErrorCode, ErrorDetail, SmsCategory, SmsTag } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { isObject, normaliseMetadata, normaliseTags, templateChoice } from './send-request.parts';

/** A problem of a send, with the code it is answered with. */
export interface SendProblem extends ErrorDetail {
  code: ErrorCode;
}

/** The template part of a send, its shape checked; rendering is the templates' (`renderSmsTemplate`). */
export interface TemplateChoice {
  ref: { id?: string; slug?: string; name?: string };
  language?: string;
  parameters?: Record<string, unknown>;
}

/** One send after the value rules: `text` sends carry `from` and `category`; template sends neither. */
export interface NormalisedSend {
  to: string;
  from?: string;
  text?: string;
  category?: SmsCategory;
  template?: TemplateChoice;
  smartEncoding: boolean;
  tags: SmsTag[];
  metadata: Record<string, unknown>;
}

/** Codes in the order a request with several kinds of problem is answered by (the first found). */
const CODE_ORDER: ErrorCode[] = [
  SmsErrors.SMSUnsupportedFeature,
  CommonErrors.ValidationError,
  SmsErrors.SMSInvalidRecipient,
  SmsErrors.SMSNoEligibleSender,
  SmsErrors.SMSTemplateInvalid,
  SmsErrors.SMSBodyTooLong,
  SmsErrors.SMSSenderNotConfigured,
  SmsErrors.SenderCategoryNotPermitted,
];

/** Every problem in one 422, under the code of the most telling kind, each detail naming its field. */
export function sendProblemsError(problems: SendProblem[]): AppError {
  const code = CODE_ORDER.find((candidate) => problems.some((p) => p.code === candidate));
  const chosen = code ?? problems[0].code;
  const first = problems.find((problem) => problem.code === chosen) ?? problems[0];
  return new AppError(chosen, {
    message: `${first.param}: ${first.message}`,
    param: first.param,
    details: problems.map(({ param, message }) => ({ param, message })),
  });
}

const SEND_FIELDS = new Set([
  'to',
  'from',
  'text',
  'category',
  'template',
  'tags',
  'metadata',
  'options',
]);

/** The rules of one send's values; `prefix` is `messages[i].` inside a batch. */
export function normaliseSend(
  body: unknown,
  prefix = '',
): { ok: true; value: NormalisedSend } | { ok: false; problems: SendProblem[] } {
  const problems: SendProblem[] = [];
  const report = (param: string, message: string, code: ErrorCode = CommonErrors.ValidationError) =>
    problems.push({ param: `${prefix}${param}`, message, code });
  if (!isObject(body)) {
    report(prefix ? '' : 'body', 'must be a JSON object');
    return { ok: false, problems };
  }
  // A batch item's fields are not seen by the gateway's DTO: unknown ones are refused here.
  for (const key of Object.keys(body))
    if (!SEND_FIELDS.has(key) && !(SMS_PREVIEW_FIELDS as readonly string[]).includes(key))
      report(key, 'is not a field of an SMS send');
  for (const field of SMS_PREVIEW_FIELDS)
    if (body[field] !== undefined)
      report(
        field,
        'is a preview feature that is not available yet',
        SmsErrors.SMSUnsupportedFeature,
      );
  const options = body.options;
  let smartEncoding = false;
  if (options !== undefined) {
    if (!isObject(options)) report('options', 'must be an object');
    else {
      if (options.track_clicks === true)
        report(
          'options.track_clicks',
          'is a preview feature that is not available yet',
          SmsErrors.SMSUnsupportedFeature,
        );
      else if (options.track_clicks !== undefined && typeof options.track_clicks !== 'boolean')
        report('options.track_clicks', 'must be a boolean');
      if (options.max_price_per_segment !== undefined)
        report(
          'options.max_price_per_segment',
          'is a preview feature that is not available yet',
          SmsErrors.SMSUnsupportedFeature,
        );
      if (options.smart_encoding !== undefined && typeof options.smart_encoding !== 'boolean')
        report('options.smart_encoding', 'must be a boolean');
      smartEncoding = options.smart_encoding === true;
      for (const key of Object.keys(options))
        if (!['smart_encoding', 'track_clicks', 'max_price_per_segment'].includes(key))
          report(`options.${key}`, 'is not an option of an SMS send');
    }
  }

  const to = typeof body.to === 'string' ? routablePhoneNumber(body.to) : undefined;
  if (body.to === undefined)
    report(
      'to',
      'is required: the recipient in E.164, such as +14155550100',
      SmsErrors.SMSInvalidRecipient,
    );
  else if (!to)
    report(
      'to',
      'must be a phone number in E.164 with its country code, such as +14155550100, and of a length its country allows',
      SmsErrors.SMSInvalidRecipient,
    );

  const hasText = body.text !== undefined;
  const hasTemplate = body.template !== undefined;
  let text: string | undefined;
  let category: SmsCategory | undefined;
  let from: string | undefined;
  let template: TemplateChoice | undefined;
  if (hasText === hasTemplate) {
    report(
      hasText ? 'template' : 'text',
      hasText
        ? 'cannot be sent together with text: give one of them'
        : 'is required unless template is given',
    );
  } else if (hasText) {
    if (typeof body.text !== 'string' || body.text.length === 0)
      report('text', 'must be a non-empty string');
    else text = body.text;
    if (body.category === undefined)
      report('category', `is required with text: one of ${SMS_CATEGORIES.join(', ')}`);
    else if (!(SMS_CATEGORIES as readonly unknown[]).includes(body.category))
      report('category', `must be one of ${SMS_CATEGORIES.join(', ')}`);
    else category = body.category as SmsCategory;
    if (body.from === undefined || body.from === null || body.from === '')
      report(
        'from',
        'is required with text: a number the workspace holds or its registered sender ID',
        SmsErrors.SMSNoEligibleSender,
      );
    else if (typeof body.from !== 'string' || body.from.trim().length > 32)
      report('from', 'must be a sender of at most 32 characters');
    else from = body.from.trim();
  } else {
    for (const field of ['from', 'category'] as const)
      if (body[field] !== undefined)
        report(field, 'is not accepted with template: the template selects it');
    template = templateChoice(body.template, report);
  }

  if (text !== undefined) {
    const measure = measureSms(text, { smartEncoding });
    if (measure.count > SMS_MAX_SEGMENTS)
      report(
        'text',
        `needs ${measure.count} segments (${measure.encoding}); at most ${SMS_MAX_SEGMENTS} are sent, never truncated`,
        SmsErrors.SMSBodyTooLong,
      );
  }
  const tags = normaliseTags(body.tags, report);
  const metadata = normaliseMetadata(body.metadata, report);
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: { to: to as string, from, text, category, template, smartEncoding, tags, metadata },
  };
}
