import type {
  EmailAddress,
  EmailAttachmentInput,
  EmailBatchRequest,
  EmailCategory,
  EmailSendRequest,
  EmailTag,
  ErrorCode,
  ErrorDetail,
} from '@switchboard/contracts';
import { CommonErrors, EmailErrors, parseAddress, parseTimestamp } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import {
  inferContentType,
  isBlockedContentType,
  isStructuralContentType,
  isBlockedFilename,
  normaliseContentType,
} from './attachment-types';
import { readTemplateSend } from './template-send.normaliser';
import { renderedLength } from '../../delivery/render';

/**
 * The limits of one send (spec: Limits; the SDK's `EmailMessageSendRequest`). `recipients`
 * counts `to`, `cc` and `bcc` together; `generatedBytes` is the spec's 20 MB estimated
 * generated size.
 */
export const SEND_LIMITS = {
  recipients: 50,
  replyTo: 25,
  subjectCharacters: 998,
  tags: 20,
  tagName: 32,
  tagValue: 64,
  metadataBytes: 2 * 1024,
  parametersBytes: 16 * 1024,
  headers: 25,
  headerName: 100,
  headerValue: 998,
  attachments: 20,
  filename: 255,
  contentId: 250,
  generatedBytes: 20 * 1024 * 1024,
  scheduleMinSeconds: 30,
  scheduleMaxDays: 30,
  batchMessages: 100,
  reportedProblems: 200,
} as const;

const SHARED_IP_POOL = 'ipp_shared';

/** Headers the platform writes itself; a send may not set them (compared case-insensitively). */
export const RESERVED_HEADERS = [
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'dkim-signature',
  // What receivers concluded about a message: only they write these.
  'authentication-results',
  'arc-seal',
  'arc-message-signature',
  'arc-authentication-results',
  'received',
  'return-path',
  'message-id',
  'date',
  'mime-version',
  'sender',
] as const;

/** Marketing sends get a compliant unsubscribe header from the platform; only transactional ones may set these. */
const UNSUBSCRIBE_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post'];

const SEND_FIELDS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply_to',
  'subject',
  'html',
  'text',
  'category',
  'tags',
  'metadata',
  'parameters',
  'headers',
  'attachments',
  'template',
  'track_opens',
  'track_clicks',
  'ip_pool_id',
  'scheduled_at',
]);
const ATTACHMENT_FIELDS = new Set(['filename', 'content', 'content_type', 'content_id']);
const CATEGORIES: readonly EmailCategory[] = ['marketing', 'transactional'];
const TAG_PART = /^[A-Za-z0-9_-]+$/;
/** RFC 5322 `field-name`: printable US-ASCII except the colon. */
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
/** Header values: no CR, LF or other control characters (a tab is folding white space). */
const HEADER_VALUE_FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const LINE_BREAK = /[\r\n]/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_WHITESPACE = /[\t\n\r ]+/g;
const CONTENT_ID = /^[\x21-\x3b\x3d\x3f-\x7e]+$/;

/** Which error a problem belongs to: plain validation, a feature this deployment lacks, or size. */
export type SendProblemCode = Extract<
  ErrorCode,
  | typeof CommonErrors.ValidationError
  | typeof CommonErrors.UnsupportedFeature
  | typeof EmailErrors.EmailMessageTooLarge
>;

export interface SendProblem extends ErrorDetail {
  code: SendProblemCode;
}

export type Normalised<T> = { ok: true; value: T } | { ok: false; problems: SendProblem[] };

export interface NormaliseOptions {
  /** The clock `scheduled_at` is checked against. */
  now: Date;
}

/**
 * Validates and normalises one send request, as the API accepts it, into what the email
 * service receives (`EmailSendRequest`): every address an object with its email trimmed and
 * lowercased, empty lists for absent `cc`/`bcc`/`reply_to`/`tags`/`attachments`, `headers`
 * an object, `category` defaulted to `marketing`, tracking flags defaulted to false,
 * attachments with their base64 whitespace removed and a content type, `scheduled_at` a UTC ISO
 * timestamp. Never throws: any input gives either the request or every problem found.
 */
export function normaliseSendRequest(
  input: unknown,
  options: NormaliseOptions,
): Normalised<EmailSendRequest> {
  return normaliseOne(input, options, '', 'body');
}

/**
 * A batch `{messages: [...]}` of 1 to 100 sends: every item is checked before any answer, and a
 * problem's `param` carries its item's index (`messages[3].from`, `messages[0].to[1]`).
 */
export function normaliseBatchRequest(
  input: unknown,
  options: NormaliseOptions,
): Normalised<EmailBatchRequest> {
  if (!isObject(input))
    return failed([problem('body', 'must be a JSON object with a messages array')]);
  const problems: SendProblem[] = [];
  for (const key of Object.keys(input))
    if (key !== 'messages') problems.push(problem(key, 'is not a known field'));
  const messages = own(input, 'messages');
  if (messages === undefined || messages === null)
    return failed([...problems, problem('messages', 'is required')]);
  if (!Array.isArray(messages))
    return failed([...problems, problem('messages', 'must be an array of send requests')]);
  if (messages.length === 0)
    return failed([...problems, problem('messages', 'must hold at least one message')]);
  if (messages.length > SEND_LIMITS.batchMessages)
    return failed([
      ...problems,
      problem('messages', `must hold at most ${SEND_LIMITS.batchMessages} messages`),
    ]);
  const normalised: EmailSendRequest[] = [];
  messages.forEach((item: unknown, index) => {
    const result = normaliseOne(item, options, `messages[${index}].`, `messages[${index}]`);
    if (result.ok) normalised.push(result.value);
    else problems.push(...result.problems);
  });
  return problems.length ? failed(problems) : { ok: true, value: { messages: normalised } };
}

/**
 * The error for a failed normalisation: 422 E01001 with every problem when any is plain
 * validation (a feature problem among them is listed too), else 422 E01017 for features this
 * deployment lacks, else 413 E01019 naming each message over the size limit in its message (not
 * a validation error, so no details; `param` is the first such message).
 */
export function sendProblemsError(problems: SendProblem[]): AppError {
  const code: SendProblemCode = problems.some((p) => p.code === CommonErrors.ValidationError)
    ? CommonErrors.ValidationError
    : problems.some((p) => p.code === CommonErrors.UnsupportedFeature)
      ? CommonErrors.UnsupportedFeature
      : EmailErrors.EmailMessageTooLarge;
  const listed =
    code === CommonErrors.ValidationError ? problems : problems.filter((p) => p.code === code);
  const details: ErrorDetail[] = listed
    .slice(0, SEND_LIMITS.reportedProblems)
    .map(({ param, message }) => ({ param, message }));
  if (listed.length > SEND_LIMITS.reportedProblems)
    details.push({
      param: 'body',
      message: `and ${listed.length - SEND_LIMITS.reportedProblems} more problems`,
    });
  if (code === EmailErrors.EmailMessageTooLarge)
    return new AppError(code, {
      message:
        details.length === 1
          ? details[0].message
          : details.map(({ param, message }) => `${param}: ${message}`).join('; '),
      param: details[0].param,
    });
  return new AppError(
    code,
    code === CommonErrors.ValidationError ? { details } : { message: details[0].message, details },
  );
}

/**
 * The estimated size of the generated message in bytes: headers and addresses, both bodies and
 * every attachment after base64 encoding in 76-character lines, plus each MIME part's headers and
 * boundaries. Generous rather than exact, so a message under it never fails generation.
 */
export function estimateGeneratedSize(request: EmailSendRequest): number {
  // With inline parameters, the content as it will render (renderContent, at processing).
  const { parameters } = request;
  const bytes = (text: string, part: 'subject' | 'html' | 'text') =>
    parameters ? renderedLength(text, parameters, part, utf8) : utf8(text);
  const addresses = [
    request.from,
    ...request.to,
    ...request.cc,
    ...request.bcc,
    ...request.reply_to,
  ];
  let headers = 2048 + bytes(request.subject, 'subject') * 2;
  for (const address of addresses)
    headers += address.email.length + utf8(address.name ?? '') * 2 + 8;
  for (const [name, value] of Object.entries(request.headers))
    headers += name.length + utf8(value) * 2 + 4;
  let parts = 0;
  if (request.html !== undefined) parts += 256 + base64Lines(bytes(request.html, 'html'));
  if (request.text !== undefined) parts += 256 + base64Lines(bytes(request.text, 'text'));
  for (const attachment of request.attachments)
    parts +=
      512 +
      utf8(attachment.filename) * 4 +
      (attachment.content_id?.length ?? 0) +
      base64Lines(decodedLength(attachment.content));
  return headers + parts;
}

function normaliseOne(
  input: unknown,
  options: NormaliseOptions,
  prefix: string,
  wholeParam: string,
): Normalised<EmailSendRequest> {
  if (!isObject(input)) return failed([problem(wholeParam, 'must be a JSON object')]);
  const problems: SendProblem[] = [];
  const report: Report = (param, message, code = CommonErrors.ValidationError) =>
    problems.push(problem(prefix + param, message, code));
  for (const key of Object.keys(input))
    if (!SEND_FIELDS.has(key)) report(key, 'is not a known field');

  const templateInput = given(input, 'template');
  const template = templateInput !== undefined;
  const templateSend = template ? readTemplateSend(templateInput, report) : undefined;
  if (template) {
    if (given(input, 'scheduled_at') !== undefined)
      report(
        'scheduled_at',
        'cannot be combined with template: a template send goes out immediately',
      );
    for (const field of ['subject', 'html', 'text'])
      if (given(input, field) !== undefined)
        report(field, 'must be omitted with template: the template supplies it');
    if (given(input, 'parameters') !== undefined)
      report('parameters', 'use template.parameters to personalise a template');
  }
  const addresses = readAddresses(input, report);
  const content = readContent(input, template, report);
  const category = readCategory(given(input, 'category'), report);
  const tags = normaliseTags(given(input, 'tags'), report);
  const metadata = jsonObject(
    given(input, 'metadata'),
    'metadata',
    SEND_LIMITS.metadataBytes,
    report,
  );
  const parameters = readParameters(given(input, 'parameters'), report);
  // A template send without its own category takes the template's, known once it is pinned:
  // the unsubscribe headers are checked then (TemplateSends).
  const headers = normaliseHeaders(
    given(input, 'headers'),
    template && given(input, 'category') === undefined ? undefined : category,
    report,
  );
  const attachments = normaliseAttachments(given(input, 'attachments'), report);
  const trackOpens = readFlag(given(input, 'track_opens'), 'track_opens', report);
  const trackClicks = readFlag(given(input, 'track_clicks'), 'track_clicks', report);
  const ipPoolId = readIpPool(given(input, 'ip_pool_id'), report);
  const scheduledAt = template
    ? undefined
    : readSchedule(given(input, 'scheduled_at'), options.now, report);

  if (problems.length || !addresses) return failed(problems);
  // Built by assignment, not conditional spreads: this runs on every send.
  const request: EmailSendRequest = {
    from: addresses.from,
    to: addresses.to,
    cc: addresses.cc,
    bcc: addresses.bcc,
    reply_to: addresses.reply_to,
    subject: content.subject,
    category,
    tags,
    headers,
    attachments,
    track_opens: trackOpens,
    track_clicks: trackClicks,
  };
  if (content.html) request.html = content.html;
  if (content.text) request.text = content.text;
  if (metadata) request.metadata = metadata;
  if (parameters) request.parameters = parameters;
  if (ipPoolId) request.ip_pool_id = ipPoolId;
  if (scheduledAt) request.scheduled_at = scheduledAt;
  if (templateSend)
    request.template = {
      ...templateSend,
      inherit_category: given(input, 'category') === undefined,
    };
  if (parameters) {
    const subject = renderedLength(request.subject, parameters, 'subject', characters);
    if (subject > SEND_LIMITS.subjectCharacters)
      return failed([
        problem(
          `${prefix}subject`,
          `renders to ${subject} characters with parameters; a subject is at most ${SEND_LIMITS.subjectCharacters}`,
        ),
      ]);
  }
  const size = estimateGeneratedSize(request);
  if (size > SEND_LIMITS.generatedBytes)
    return failed([
      problem(
        wholeParam,
        `the generated message would be about ${megabytes(size)} MB; a message may be at most ${megabytes(SEND_LIMITS.generatedBytes)} MB after encoding (send smaller attachments, or links to them)`,
        EmailErrors.EmailMessageTooLarge,
      ),
    ]);
  return { ok: true, value: request };
}

type Report = (param: string, message: string, code?: SendProblemCode) => void;

/** `from`, the recipients (at most 50 across to, cc and bcc) and reply_to, in object form. */
function readAddresses(
  input: Record<string, unknown>,
  report: Report,
): Pick<EmailSendRequest, 'from' | 'to' | 'cc' | 'bcc' | 'reply_to'> | undefined {
  let from: EmailAddress | undefined;
  const fromInput = given(input, 'from');
  if (fromInput === undefined) report('from', 'is required');
  else {
    const parsed = parseAddress(fromInput, 'from');
    if ('address' in parsed) from = parsed.address;
    else for (const detail of parsed.problems) report(detail.param, detail.message);
  }
  const count = (['to', 'cc', 'bcc'] as const).reduce((sum, field) => {
    const value = given(input, field);
    return sum + (Array.isArray(value) ? value.length : 0);
  }, 0);
  // Beyond the recipient cap the lists are not read further: the cap is the one problem.
  const tooMany = count > SEND_LIMITS.recipients;
  if (tooMany)
    report(
      'to',
      `at most ${SEND_LIMITS.recipients} recipients across to, cc and bcc (this send has ${count}); send the rest in a batch`,
    );
  const list = (field: string, max: number, required: boolean): EmailAddress[] => {
    const value = given(input, field);
    if (value === undefined) {
      if (required) report(field, 'is required: list at least one recipient');
      return [];
    }
    if (!Array.isArray(value)) {
      report(field, 'must be an array of addresses');
      return [];
    }
    if (required && value.length === 0) {
      report(field, 'must list at least one recipient');
      return [];
    }
    if (value.length > max) {
      report(field, `must list at most ${max} addresses`);
      return [];
    }
    const result = normaliseAddressList(value, field);
    if (result.ok) return result.value;
    for (const detail of result.problems) report(detail.param, detail.message);
    return [];
  };
  const recipients = (field: string, required: boolean) =>
    tooMany ? [] : list(field, SEND_LIMITS.recipients, required);
  // One recipient per address, where it is first listed (to, then cc, then bcc, in any case):
  // a personalised send makes a copy per recipient, so a repeat would be mailed twice.
  const listed = new Set<string>();
  const once = (addresses: EmailAddress[]) =>
    addresses.filter(({ email }) => {
      const key = email.toLowerCase();
      if (listed.has(key)) return false;
      listed.add(key);
      return true;
    });
  const to = once(recipients('to', true));
  const cc = once(recipients('cc', false));
  const bcc = once(recipients('bcc', false));
  const replyTo = list('reply_to', SEND_LIMITS.replyTo, false);
  return from && { from, to, cc, bcc, reply_to: replyTo };
}

/** The subject (required, one line, at most 998 characters) and at least one non-empty body. */
function readContent(
  input: Record<string, unknown>,
  template: boolean,
  report: Report,
): { subject: string; html?: string; text?: string } {
  const subjectInput = given(input, 'subject');
  let subject = '';
  if (subjectInput === undefined) {
    if (!template) report('subject', 'is required');
  } else if (typeof subjectInput !== 'string') report('subject', 'must be a string');
  else if (subjectInput.trim() === '') report('subject', 'must not be empty');
  else if (LINE_BREAK.test(subjectInput)) report('subject', 'must not contain line breaks');
  else if (characters(subjectInput) > SEND_LIMITS.subjectCharacters)
    report('subject', `must be at most ${SEND_LIMITS.subjectCharacters} characters`);
  else subject = subjectInput;
  let wrongType = false;
  const body = (field: 'html' | 'text'): string | undefined => {
    const value = given(input, field);
    if (value === undefined || typeof value === 'string') return value;
    report(field, 'must be a string');
    wrongType = true;
    return undefined;
  };
  const html = body('html');
  const text = body('text');
  if (!template && !wrongType && !html && !text)
    report('html', 'html or text is required (a non-empty body)');
  return { subject, html, text };
}

function readCategory(value: unknown, report: Report): EmailCategory {
  if (value === undefined) return 'marketing';
  if (typeof value === 'string' && (CATEGORIES as readonly string[]).includes(value))
    return value as EmailCategory;
  report('category', `must be one of ${CATEGORIES.join(', ')}`);
  return 'marketing';
}

/** Liquid values: a JSON object of at most 16 KB whose names are single words other than `bird`. */
function readParameters(value: unknown, report: Report): Record<string, unknown> | undefined {
  const parameters = jsonObject(value, 'parameters', SEND_LIMITS.parametersBytes, report);
  if (!parameters) return undefined;
  let ok = true;
  for (const key of Object.keys(parameters)) {
    if (key === 'bird')
      report('parameters.bird', 'bird is reserved: the platform supplies values under it');
    else if (!PARAMETER_NAME.test(key))
      report(`parameters.${key}`, 'parameter names are single words (letters, digits, underscore)');
    else continue;
    ok = false;
  }
  return ok ? parameters : undefined;
}

function readFlag(value: unknown, field: string, report: Report): boolean {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  report(field, 'must be a boolean');
  return false;
}

/** Only the shared pool exists here: `ipp_shared` is accepted, any other pool is E01017. */
function readIpPool(value: unknown, report: Report): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') report('ip_pool_id', 'must be a string');
  else if (value !== SHARED_IP_POOL)
    report(
      'ip_pool_id',
      `dedicated IP pools do not exist in this deployment: omit ip_pool_id or send ${SHARED_IP_POOL}`,
      CommonErrors.UnsupportedFeature,
    );
  else return value;
  return undefined;
}

/** A time zone-qualified ISO 8601 instant 30 seconds to 30 days ahead, as a UTC ISO string. */
function readSchedule(value: unknown, now: Date, report: Report): string | undefined {
  if (value === undefined) return undefined;
  const at = typeof value === 'string' ? parseTimestamp(value) : undefined;
  if (!at)
    report(
      'scheduled_at',
      'must be an ISO 8601 timestamp with a time zone, such as 2030-01-01T09:00:00Z',
    );
  else if (at.getTime() < now.getTime() + SEND_LIMITS.scheduleMinSeconds * 1000)
    report(
      'scheduled_at',
      `must be at least ${SEND_LIMITS.scheduleMinSeconds} seconds in the future`,
    );
  else if (at.getTime() > now.getTime() + SEND_LIMITS.scheduleMaxDays * 86_400_000)
    report('scheduled_at', `must be at most ${SEND_LIMITS.scheduleMaxDays} days in the future`);
  else return at.toISOString();
  return undefined;
}

/** A list of addresses in any accepted form, each to its object form; problems name the index. */
export function normaliseAddressList(values: unknown[], param: string): Normalised<EmailAddress[]> {
  const problems: SendProblem[] = [];
  const addresses: EmailAddress[] = [];
  values.forEach((value, index) => {
    const parsed = parseAddress(value, `${param}[${index}]`);
    if ('address' in parsed) addresses.push(parsed.address);
    else for (const detail of parsed.problems) problems.push(problem(detail.param, detail.message));
  });
  return problems.length ? failed(problems) : { ok: true, value: addresses };
}

function normaliseTags(value: unknown, report: Report): EmailTag[] {
  const param = 'tags';
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    report(param, 'must be an array of {name, value} objects');
    return [];
  }
  if (value.length > SEND_LIMITS.tags) {
    report(param, `must hold at most ${SEND_LIMITS.tags} tags`);
    return [];
  }
  const tags: EmailTag[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, index) => {
    const at = `${param}[${index}]`;
    if (!isObject(item)) {
      report(at, 'must be an object {name, value}');
      return;
    }
    for (const key of Object.keys(item))
      if (key !== 'name' && key !== 'value') report(`${at}.${key}`, 'is not a known field');
    const name = own(item, 'name');
    const tagValue = own(item, 'value');
    let ok = true;
    const part = (field: 'name' | 'value', text: unknown, max: number) => {
      if (text === undefined || text === null) report(`${at}.${field}`, 'is required');
      else if (typeof text !== 'string') report(`${at}.${field}`, 'must be a string');
      else if (!TAG_PART.test(text))
        report(`${at}.${field}`, 'must be ASCII letters, digits, underscores and hyphens');
      else if (text.length > max) report(`${at}.${field}`, `must be at most ${max} characters`);
      else return;
      ok = false;
    };
    part('name', name, SEND_LIMITS.tagName);
    part('value', tagValue, SEND_LIMITS.tagValue);
    if (!ok) return;
    if (seen.has(name as string)) {
      report(`${at}.name`, `repeats the tag name ${name as string}: tag names are unique`);
      return;
    }
    seen.add(name as string);
    tags.push({ name: name as string, value: tagValue as string });
  });
  return tags;
}

function normaliseHeaders(
  value: unknown,
  category: EmailCategory | undefined,
  report: Report,
): Record<string, string> {
  const param = 'headers';
  // No prototype: a header named __proto__ is kept as one, not taken as the object's prototype.
  const headers = Object.create(null) as Record<string, string>;
  if (value === undefined) return headers;
  if (!isObject(value)) {
    report(param, 'must be an object of header names to string values');
    return headers;
  }
  const names = Object.keys(value);
  if (names.length > SEND_LIMITS.headers) {
    report(param, `must hold at most ${SEND_LIMITS.headers} headers`);
    return headers;
  }
  const seen = new Set<string>();
  for (const name of names) {
    const at = `${param}.${name}`;
    const lower = name.toLowerCase();
    const headerValue = own(value, name);
    if (!FIELD_NAME.test(name) || name.length > SEND_LIMITS.headerName) {
      report(
        at,
        `is not a header name: printable ASCII without spaces or colons, at most ${SEND_LIMITS.headerName} characters`,
      );
      continue;
    }
    if ((RESERVED_HEADERS as readonly string[]).includes(lower)) {
      report(
        at,
        `${name} is set by the platform and cannot be overridden; use the dedicated fields`,
      );
      continue;
    }
    if (category === 'marketing' && UNSUBSCRIBE_HEADERS.includes(lower)) {
      report(at, unsubscribeHeaderMessage(name));
      continue;
    }
    if (seen.has(lower)) {
      report(at, 'repeats a header name (header names are case-insensitive)');
      continue;
    }
    seen.add(lower);
    if (typeof headerValue !== 'string') report(at, 'must be a string');
    else if (HEADER_VALUE_FORBIDDEN.test(headerValue))
      report(at, 'must not contain line breaks (CR, LF) or control characters');
    else if (!headerValue.trim())
      report(at, 'must not be empty (a header without a value is not sent)');
    else if (headerValue.length > SEND_LIMITS.headerValue)
      report(at, `must be at most ${SEND_LIMITS.headerValue} characters`);
    else headers[name] = headerValue;
  }
  return headers;
}

function normaliseAttachments(value: unknown, report: Report): EmailAttachmentInput[] {
  const param = 'attachments';
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    report(param, 'must be an array of attachments');
    return [];
  }
  if (value.length > SEND_LIMITS.attachments) {
    report(param, `must hold at most ${SEND_LIMITS.attachments} attachments`);
    return [];
  }
  const attachments: EmailAttachmentInput[] = [];
  const contentIds = new Set<string>();
  value.forEach((item: unknown, index) => {
    const at = `${param}[${index}]`;
    if (!isObject(item)) {
      report(at, 'must be an object {filename, content, content_type?, content_id?}');
      return;
    }
    let ok = true;
    const fail = (field: string, message: string) => {
      report(`${at}.${field}`, message);
      ok = false;
    };
    for (const key of Object.keys(item))
      if (!ATTACHMENT_FIELDS.has(key)) fail(key, 'is not a known field');
    const filename = given(item, 'filename');
    if (filename === undefined) fail('filename', 'is required');
    else if (typeof filename !== 'string') fail('filename', 'must be a string');
    else if (filename.trim() === '') fail('filename', 'must not be empty');
    else if (CONTROL.test(filename))
      fail('filename', 'must not contain line breaks or control characters');
    else if (filename.length > SEND_LIMITS.filename)
      fail('filename', `must be at most ${SEND_LIMITS.filename} characters`);
    else if (isBlockedFilename(filename))
      fail('filename', 'executable and script files cannot be attached');
    const content = given(item, 'content');
    let cleaned = '';
    if (content === undefined) fail('content', 'is required');
    else if (typeof content !== 'string') fail('content', 'must be a base64 string');
    else {
      cleaned = content.replace(BASE64_WHITESPACE, '');
      if (cleaned.length % 4 !== 0 || !BASE64.test(cleaned))
        fail('content', 'must be base64 (the standard alphabet, with padding)');
    }
    const typeInput = given(item, 'content_type');
    let contentType: string | undefined;
    if (typeInput !== undefined) {
      if (typeof typeInput !== 'string') fail('content_type', 'must be a string');
      else {
        const parsed = normaliseContentType(typeInput);
        if (!parsed) fail('content_type', 'must be a MIME type such as application/pdf');
        else if (isBlockedContentType(parsed))
          fail('content_type', 'executable and script types cannot be attached');
        else if (isStructuralContentType(parsed))
          fail(
            'content_type',
            'multipart and message types are the structure of the mail itself; attach the file as application/octet-stream',
          );
        else contentType = parsed;
      }
    }
    const idInput = given(item, 'content_id');
    let contentId: string | undefined;
    if (idInput !== undefined) {
      if (typeof idInput !== 'string') fail('content_id', 'must be a string');
      else {
        const id =
          idInput.startsWith('<') && idInput.endsWith('>') ? idInput.slice(1, -1) : idInput;
        if (!id || !CONTENT_ID.test(id) || id.length > SEND_LIMITS.contentId)
          fail(
            'content_id',
            `must be a Content-ID: printable ASCII without spaces or angle brackets, at most ${SEND_LIMITS.contentId} characters`,
          );
        else if (contentIds.has(id))
          fail('content_id', 'repeats the content_id of another attachment');
        else {
          contentIds.add(id);
          contentId = id;
        }
      }
    }
    if (!ok) return;
    const name = filename as string;
    attachments.push({
      filename: name,
      content: cleaned,
      content_type: contentType ?? inferContentType(name),
      ...(contentId !== undefined ? { content_id: contentId } : {}),
    });
  });
  return attachments;
}

/** A JSON object at most `maxBytes` long once serialized (UTF-8), or undefined when absent. */
function jsonObject(
  value: unknown,
  param: string,
  maxBytes: number,
  report: Report,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    report(param, 'must be a JSON object');
    return undefined;
  }
  let serialized: string | undefined;
  try {
    serialized = JSON.stringify(value);
  } catch {
    serialized = undefined;
  }
  if (serialized === undefined) {
    report(param, 'must be a JSON object');
    return undefined;
  }
  if (utf8(serialized) > maxBytes) {
    report(param, `must be at most ${maxBytes} bytes once serialized`);
    return undefined;
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property; inherited ones (`constructor`, `toString`) are never fields. */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** An own property, with `null` meaning "not given" like an absent field. */
function given(object: Record<string, unknown>, key: string): unknown {
  const value = own(object, key);
  return value === null ? undefined : value;
}

function unsubscribeHeaderMessage(name: string): string {
  return `${name} is added to marketing sends by the platform; it may be set on transactional sends only`;
}

/**
 * The unsubscribe headers a send of `category` may not carry (the platform adds them to
 * marketing mail), as problems under `prefix` + `headers.<name>`.
 */
export function unsubscribeHeaderProblems(
  headers: Record<string, string>,
  category: EmailCategory,
  prefix: string,
): SendProblem[] {
  if (category !== 'marketing') return [];
  return Object.keys(headers)
    .filter((name) => UNSUBSCRIBE_HEADERS.includes(name.toLowerCase()))
    .map((name) => problem(`${prefix}headers.${name}`, unsubscribeHeaderMessage(name)));
}

function problem(
  param: string,
  message: string,
  code: SendProblemCode = CommonErrors.ValidationError,
): SendProblem {
  return { param, message, code };
}

function failed<T>(problems: SendProblem[]): Normalised<T> {
  return { ok: false, problems };
}

/** Characters as people count them: code points, not UTF-16 units. */
function characters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function utf8(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Bytes decoded from clean, padded base64. */
function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

/** Base64 of `bytes` in 76-character lines with CRLF. */
function base64Lines(bytes: number): number {
  const encoded = Math.ceil(bytes / 3) * 4;
  return encoded + Math.ceil(encoded / 76) * 2;
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
}
