import { createHash, randomBytes } from 'node:crypto';
import { invalidParameter, MetaErrorAnswer, unsupported } from './graph-meta-errors';
import { newWamid } from './graph-webhooks';
import type {
  GraphCall,
  GraphSentMessage,
  SeedAccount,
  SeedMedia,
  SeedNumber,
  StoredTemplate,
} from './graph-stand-in.types';

/** What the stand-in holds: the accounts, numbers, templates and media a test seeded. */
export interface GraphState {
  url: string;
  origin: string;
  accounts: Map<string, SeedAccount & { subscribed: boolean }>;
  numbers: Map<string, SeedNumber & { registered: boolean }>;
  templates: Map<string, StoredTemplate[]>;
  media: Map<string, SeedMedia>;
  /** Download URL token -> media id and expiry. */
  mediaUrls: Map<string, { mediaId: string; expiresAt: number }>;
  sent: GraphSentMessage[];
  templatePageSize: number;
  mediaUrlTtlMs: number;
  checkTemplates: boolean;
}

export type RouteAnswer =
  | MetaErrorAnswer
  | { status: number; json: unknown }
  | { status: number; bytes: Buffer; contentType: string };

const ok = (json: unknown) => ({ status: 200, json });

/** Keeps only the `fields` asked for (plus `id`), as the Graph API does. */
function pick(object: Record<string, unknown>, fields: string | undefined) {
  if (!fields) return object;
  const wanted = new Set(['id', ...fields.split(',').map((field) => field.trim().split('{')[0])]);
  return Object.fromEntries(Object.entries(object).filter(([key]) => wanted.has(key)));
}

function numberJson(number: SeedNumber) {
  return {
    id: number.phoneNumberId,
    display_phone_number: number.displayPhoneNumber,
    verified_name: number.verifiedName ?? 'Test Business',
    quality_rating: number.qualityRating ?? 'GREEN',
    messaging_limit_tier: number.messagingLimitTier ?? 'TIER_1K',
    throughput: { level: number.throughputLevel ?? 'STANDARD' },
    is_official_business_account: false,
    status: number.status ?? 'CONNECTED',
    name_status: number.nameStatus ?? 'APPROVED',
    code_verification_status: number.codeVerificationStatus ?? 'VERIFIED',
    platform_type: number.platformType ?? 'CLOUD_API',
  };
}

function accountJson(account: SeedAccount) {
  return {
    id: account.wabaId,
    name: account.name ?? 'Test WABA',
    account_review_status: account.accountReviewStatus ?? 'APPROVED',
    business_verification_status: account.businessVerificationStatus ?? 'verified',
    owner_business_info: account.ownerBusiness ?? { id: '100000000000001', name: 'Test Business' },
    currency: account.currency ?? 'USD',
    timezone_id: account.timezoneId ?? '1',
    message_template_namespace: account.messageTemplateNamespace ?? 'test_namespace',
  };
}

function mediaInfo(state: GraphState, media: SeedMedia) {
  const token = randomBytes(16).toString('hex');
  state.mediaUrls.set(token, { mediaId: media.id, expiresAt: Date.now() + state.mediaUrlTtlMs });
  return {
    messaging_product: 'whatsapp',
    url: `${state.origin}/whatsapp_business/attachments/?mid=${media.id}&hash=${token}`,
    mime_type: media.mimeType,
    sha256: media.sha256 ?? createHash('sha256').update(media.bytes).digest('hex'),
    file_size: media.bytes.length,
    id: media.id,
  };
}

function templatesPage(state: GraphState, wabaId: string, query: Record<string, string>) {
  const all = state.templates.get(wabaId) ?? [];
  // The page size is Meta's cap: a larger `limit` still gets pages of this size.
  const limit = Math.max(1, Math.min(Number(query.limit) || Infinity, state.templatePageSize));
  const start = query.after ? Number(Buffer.from(query.after, 'base64url').toString()) : 0;
  if (!Number.isInteger(start) || start < 0) return invalidParameter('(#100) Invalid cursor');
  const data = all
    .slice(start, start + limit)
    .map((template) => pick({ ...template }, query.fields));
  const cursor = (index: number) => Buffer.from(String(index)).toString('base64url');
  const paging: Record<string, unknown> = {
    cursors: { before: cursor(start), after: cursor(start + data.length) },
  };
  if (start + limit < all.length) {
    const next = new URLSearchParams({
      ...query,
      limit: String(limit),
      after: cursor(start + limit),
    });
    paging.next = `${state.url}/${wabaId}/message_templates?${next.toString()}`;
  }
  return ok({ data, paging });
}

function send(state: GraphState, number: SeedNumber & { registered: boolean }, body: unknown) {
  const message = (body ?? {}) as Record<string, unknown>;
  if (message.messaging_product !== 'whatsapp')
    return invalidParameter('(#100) The parameter messaging_product is required.');
  if (message.status === 'read') {
    if (typeof message.message_id !== 'string')
      return invalidParameter('(#100) The parameter message_id is required.');
    state.sent.push({
      phoneNumberId: number.phoneNumberId,
      wamid: '',
      body: message,
      at: Date.now(),
    });
    return ok({ success: true });
  }
  if (!number.registered)
    return new MetaErrorAnswer(400, 133010, '(#133010) Account not registered');
  if (typeof message.to !== 'string' || !message.to)
    return invalidParameter('(#100) The parameter to is required.');
  const type = typeof message.type === 'string' ? message.type : 'text';
  const content = message[type] as Record<string, unknown> | undefined;
  if (!content || typeof content !== 'object')
    return invalidParameter(`(#100) The parameter ${type} is required.`);
  if (type === 'template' && state.checkTemplates) {
    const language = (content.language as { code?: string } | undefined)?.code;
    const known = (state.templates.get(number.wabaId) ?? []).find(
      (template) => template.name === content.name && template.language === language,
    );
    if (!known || known.status !== 'APPROVED')
      return new MetaErrorAnswer(
        400,
        132001,
        '(#132001) Template name does not exist in the translation',
      );
  }
  const wamid = newWamid();
  state.sent.push({ phoneNumberId: number.phoneNumberId, wamid, body: message, at: Date.now() });
  return ok({
    messaging_product: 'whatsapp',
    contacts: [{ input: message.to, wa_id: message.to.replace(/\D/g, '') }],
    messages: [{ id: wamid, ...(type === 'template' ? { message_status: 'accepted' } : {}) }],
  });
}

function download(state: GraphState, query: Record<string, string>): RouteAnswer {
  const grant = state.mediaUrls.get(query.hash ?? '');
  const media = grant && grant.mediaId === query.mid ? state.media.get(grant.mediaId) : undefined;
  if (!grant || !media || grant.expiresAt < Date.now())
    return { status: 404, bytes: Buffer.from('URL signature expired'), contentType: 'text/plain' };
  return { status: 200, bytes: media.bytes, contentType: media.mimeType };
}

/** Answers one authenticated call. */
export function route(state: GraphState, call: GraphCall): RouteAnswer {
  if (call.method === 'GET' && call.path === '/whatsapp_business/attachments/')
    return download(state, call.query);
  const [id = '', edge, ...rest] = call.path.split('/').filter(Boolean);
  const number = state.numbers.get(id);
  const account = state.accounts.get(id);
  const key = `${call.method} ${edge ?? ''}`;
  if (rest.length > 0) return unsupported(call.method, id);
  if (key === 'GET ') {
    const media = state.media.get(id);
    if (number) return ok(pick(numberJson(number), call.query.fields));
    if (account) return ok(pick(accountJson(account), call.query.fields));
    if (media) return ok(mediaInfo(state, media));
  }
  if (number && key === 'GET whatsapp_business_profile')
    return ok({
      data: [
        pick(
          { messaging_product: 'whatsapp', ...number.profile },
          call.query.fields && `messaging_product,${call.query.fields}`,
        ),
      ],
    });
  if (number && key === 'POST register') {
    const pin = (call.body as { pin?: unknown } | undefined)?.pin;
    if (typeof pin !== 'string' || !/^\d{6}$/.test(pin))
      return invalidParameter('(#100) The parameter pin is required and must be 6 digits.');
    if (number.pin !== undefined && number.pin !== pin)
      return new MetaErrorAnswer(400, 133005, '(#133005) Two step verification PIN Mismatch');
    number.registered = true;
    return ok({ success: true });
  }
  if (number && key === 'POST messages') return send(state, number, call.body);
  if (account && key === 'GET message_templates') return templatesPage(state, id, call.query);
  if (account && key === 'POST subscribed_apps') {
    account.subscribed = true;
    return ok({ success: true });
  }
  if (account && key === 'GET subscribed_apps')
    return ok({
      data: account.subscribed
        ? [{ whatsapp_business_api_data: { id: '900000000000001', name: 'Switchboard' } }]
        : [],
    });
  return unsupported(call.method, id);
}
