import { BROADCAST_LIMITS, parseAddress, parseTimestamp } from '@switchboard/contracts';
import type { EmailAddress, EmailCategory, EmailTag, ErrorDetail } from '@switchboard/contracts';
import { normaliseAddressList, RESERVED_HEADERS } from '../messages/accept/send-request.normaliser';

/** The stored fields a create or update sets; absent ones are left as they are. */
export interface BroadcastChanges {
  from?: EmailAddress;
  audience_id?: string;
  template_id?: string | null;
  reply_to?: EmailAddress[];
  headers?: Record<string, string>;
  tags?: EmailTag[];
  metadata?: Record<string, unknown>;
  track_opens?: boolean;
  track_clicks?: boolean;
  ip_pool_id?: string | null;
  category?: EmailCategory;
}

export interface BroadcastRequest {
  changes: BroadcastChanges;
  send: boolean;
  scheduledAt?: Date;
}

export type BroadcastNormalised =
  { ok: true; value: BroadcastRequest } | { ok: false; details: ErrorDetail[] };

const COMMON_FIELDS = [
  'from',
  'audience_id',
  'template',
  'reply_to',
  'headers',
  'tags',
  'metadata',
  'track_opens',
  'track_clicks',
  'ip_pool_id',
  'category',
];
const CREATE_FIELDS = new Set([...COMMON_FIELDS, 'send', 'scheduled_at']);
const UPDATE_FIELDS = new Set(COMMON_FIELDS);
/** Ours: the one-click pair is added to marketing mail by the platform, never taken from a body. */
const UNSUBSCRIBE_HEADERS = ['list-unsubscribe', 'list-unsubscribe-post'];
const TAG_PART = /^[A-Za-z0-9_-]+$/;
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]{1,100}$/;
const HEADER_VALUE_FORBIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f]/;
const AUDIENCE_ID = /^adn_[0-9a-z]{1,64}$/;
const TEMPLATE_ID = /^emt_[0-9a-z]{1,64}$/;
const CATEGORIES: readonly string[] = ['marketing', 'transactional'];

/**
 * Checks a create (`mode` create) or update body's values and turns them into the stored fields;
 * every problem is reported at once. `null` clears `template`, `reply_to` and `ip_pool_id` on an
 * update; `List-Unsubscribe` and `List-Unsubscribe-Post` headers are dropped, never refused.
 */
export function normaliseBroadcastRequest(
  body: unknown,
  mode: 'create' | 'update',
  now: Date,
): BroadcastNormalised {
  const details: ErrorDetail[] = [];
  const report = (param: string, message: string) => details.push({ param, message });
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, details: [{ param: 'body', message: 'must be a JSON object' }] };
  const input = body as Record<string, unknown>;
  const known = mode === 'create' ? CREATE_FIELDS : UPDATE_FIELDS;
  for (const key of Object.keys(input)) if (!known.has(key)) report(key, 'is not a known field');
  const has = (key: string) => Object.hasOwn(input, key) && input[key] !== undefined;
  const changes: BroadcastChanges = {};
  if (has('from')) {
    const parsed = parseAddress(input.from, 'from');
    if ('address' in parsed) changes.from = parsed.address;
    else details.push(...parsed.problems);
  }
  if (has('audience_id')) {
    if (typeof input.audience_id === 'string' && AUDIENCE_ID.test(input.audience_id))
      changes.audience_id = input.audience_id;
    else report('audience_id', 'must be an audience id (adn_...)');
  }
  if (has('template')) readTemplate(input.template, mode, changes, report);
  if (has('reply_to')) readReplyTo(input.reply_to, mode, changes, details);
  if (has('headers')) changes.headers = readHeaders(input.headers, report);
  if (has('tags')) changes.tags = readTags(input.tags, report);
  if (has('metadata')) {
    const value = input.metadata;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      report('metadata', 'must be a JSON object');
    else if (Buffer.byteLength(JSON.stringify(value)) > BROADCAST_LIMITS.metadataBytes)
      report('metadata', `must be at most ${BROADCAST_LIMITS.metadataBytes} bytes once serialized`);
    else changes.metadata = value as Record<string, unknown>;
  }
  for (const flag of ['track_opens', 'track_clicks'] as const)
    if (has(flag)) {
      if (typeof input[flag] === 'boolean') changes[flag] = input[flag];
      else report(flag, 'must be a boolean');
    }
  if (Object.hasOwn(input, 'ip_pool_id')) {
    const pool = input.ip_pool_id;
    if (pool === null && mode === 'update') changes.ip_pool_id = null;
    else if (typeof pool !== 'string' || !/^ipp_([0-9a-hjkmnp-tv-z]{26}|shared)$/.test(pool))
      report('ip_pool_id', 'must be an IP pool id (ipp_...) or ipp_shared');
    else changes.ip_pool_id = pool;
  }
  if (has('category')) {
    if (typeof input.category === 'string' && CATEGORIES.includes(input.category))
      changes.category = input.category as EmailCategory;
    else report('category', `must be one of ${CATEGORIES.join(', ')}`);
  }
  let send = false;
  if (mode === 'create' && has('send')) {
    if (typeof input.send === 'boolean') send = input.send;
    else report('send', 'must be a boolean');
  }
  let scheduledAt: Date | undefined;
  if (mode === 'create' && has('scheduled_at')) {
    const problem = scheduleProblem(input.scheduled_at, now);
    if (typeof problem === 'string') report('scheduled_at', problem);
    else scheduledAt = problem;
  }
  if (details.length) return { ok: false, details };
  return { ok: true, value: { changes, send, scheduledAt } };
}

/** A `scheduled_at` 30 seconds to 365 days ahead, or what is wrong with it. */
export function scheduleProblem(value: unknown, now: Date): Date | string {
  const at = typeof value === 'string' ? parseTimestamp(value) : undefined;
  if (!at) return 'must be an RFC 3339 timestamp with a time zone, such as 2030-01-01T09:00:00Z';
  if (at.getTime() < now.getTime() + BROADCAST_LIMITS.scheduleMinSeconds * 1000)
    return `must be at least ${BROADCAST_LIMITS.scheduleMinSeconds} seconds in the future`;
  if (at.getTime() > now.getTime() + BROADCAST_LIMITS.scheduleMaxDays * 86_400_000)
    return `must be at most ${BROADCAST_LIMITS.scheduleMaxDays} days in the future`;
  return at;
}

type Report = (param: string, message: string) => void;

function readTemplate(
  value: unknown,
  mode: 'create' | 'update',
  changes: BroadcastChanges,
  report: Report,
): void {
  if (value === null) {
    if (mode === 'update') changes.template_id = null;
    else report('template', 'must be an object {id}');
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    report('template', 'must be an object {id}');
    return;
  }
  const template = value as Record<string, unknown>;
  for (const key of Object.keys(template))
    if (key !== 'id' && key !== 'version_id') report(`template.${key}`, 'is not a known field');
  if (typeof template.id === 'string' && TEMPLATE_ID.test(template.id))
    changes.template_id = template.id;
  else report('template.id', 'must be a template id (emt_...)');
}

function readReplyTo(
  value: unknown,
  mode: 'create' | 'update',
  changes: BroadcastChanges,
  details: ErrorDetail[],
): void {
  if (value === null && mode === 'update') changes.reply_to = [];
  else if (!Array.isArray(value) || value.length === 0)
    details.push({ param: 'reply_to', message: 'must be a non-empty array of addresses' });
  else if (value.length > BROADCAST_LIMITS.replyTo)
    details.push({
      param: 'reply_to',
      message: `must list at most ${BROADCAST_LIMITS.replyTo} addresses`,
    });
  else {
    const result = normaliseAddressList(value, 'reply_to');
    if (result.ok) changes.reply_to = result.value;
    else details.push(...result.problems.map(({ param, message }) => ({ param, message })));
  }
}

function readHeaders(value: unknown, report: Report): Record<string, string> {
  // No prototype: a header named __proto__ stays a header.
  const headers = Object.create(null) as Record<string, string>;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    report('headers', 'must be an object of header names to string values');
    return headers;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > BROADCAST_LIMITS.headers) {
    report('headers', `must hold at most ${BROADCAST_LIMITS.headers} headers`);
    return headers;
  }
  const seen = new Set<string>();
  for (const [name, headerValue] of entries) {
    const at = `headers.${name}`;
    const lower = name.toLowerCase();
    if (!FIELD_NAME.test(name)) report(at, 'is not a header name');
    else if (UNSUBSCRIBE_HEADERS.includes(lower)) continue;
    else if ((RESERVED_HEADERS as readonly string[]).includes(lower))
      report(at, `${name} is set by the platform and cannot be overridden`);
    else if (seen.has(lower)) report(at, 'repeats a header name (case-insensitive)');
    else if (typeof headerValue !== 'string') report(at, 'must be a string');
    else if (HEADER_VALUE_FORBIDDEN.test(headerValue))
      report(at, 'must not contain line breaks or control characters');
    else if (!headerValue.trim())
      report(at, 'must not be empty (a header without a value is not sent)');
    else if (headerValue.length > BROADCAST_LIMITS.headerValue)
      report(at, `must be at most ${BROADCAST_LIMITS.headerValue} characters`);
    else {
      seen.add(lower);
      headers[name] = headerValue;
    }
  }
  return headers;
}

function readTags(value: unknown, report: Report): EmailTag[] {
  if (!Array.isArray(value)) {
    report('tags', 'must be an array of {name, value} objects');
    return [];
  }
  if (value.length > BROADCAST_LIMITS.tags) {
    report('tags', `must hold at most ${BROADCAST_LIMITS.tags} tags`);
    return [];
  }
  const tags: EmailTag[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, index) => {
    const at = `tags[${index}]`;
    const tag = item as Record<string, unknown> | null;
    if (typeof tag !== 'object' || tag === null || Array.isArray(tag))
      return report(at, 'must be an object {name, value}');
    for (const key of Object.keys(tag))
      if (key !== 'name' && key !== 'value') report(`${at}.${key}`, 'is not a known field');
    const ok = (field: 'name' | 'value', max: number) => {
      const text = tag[field];
      if (typeof text === 'string' && TAG_PART.test(text) && text.length <= max) return true;
      report(`${at}.${field}`, `must be 1 to ${max} ASCII letters, digits, _ or -`);
      return false;
    };
    if (!ok('name', 32) || !ok('value', 64)) return;
    if (seen.has(tag.name as string)) return report(`${at}.name`, 'repeats a tag name');
    seen.add(tag.name as string);
    tags.push({ name: tag.name as string, value: tag.value as string });
  });
  return tags;
}
