import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { SMS_WHATSAPP_CONFIG } from '../../config/sms-whatsapp.config';
import type { SmsWhatsappConfig } from '../../config/sms-whatsapp.config';
import { GRAPH_TOKEN_UNSET, graphErrorOf, isTimeout, unreachable } from './graph-response';
import { NumberThroughput } from './number-throughput';
import { DEFAULT_GRAPH_TUNING, WHATSAPP_GRAPH_TUNING } from './graph-tuning';
import type { GraphClientTuning } from './graph-tuning';
import { GraphError } from './whatsapp-graph';
import type {
  GraphBusinessAccount,
  GraphBusinessProfile,
  GraphMediaInfo,
  GraphMessageBody,
  GraphPhoneNumber,
  GraphTemplate,
  WhatsAppGraph,
} from './whatsapp-graph';

/** The fields asked of Meta: the ones `whatsapp-graph.ts` declares (Meta's defaults are fewer). */
const PHONE_FIELDS =
  'id,display_phone_number,verified_name,quality_rating,messaging_limit_tier,throughput,is_official_business_account,status,name_status,code_verification_status,platform_type';
const ACCOUNT_FIELDS =
  'id,name,account_review_status,business_verification_status,marketing_messages_onboarding_status,owner_business_info';
const TEMPLATE_FIELDS =
  'id,name,language,status,category,previous_category,components,quality_score,rejected_reason';
const PROFILE_FIELDS = 'about,address,description,email,profile_picture_url,vertical,websites';
/** Hosts Meta serves media downloads from (the token is never sent anywhere else). */
const MEDIA_HOSTS = /(^|\.)(fbsbx\.com|facebook\.com|fbcdn\.net|whatsapp\.net)$/;

interface CallSpec {
  method: 'GET' | 'POST';
  url: string;
  /** What error messages name: the method and path, never the query. */
  label: string;
  body?: unknown;
  timeoutMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `WhatsAppGraph` over HTTPS to `WHATSAPP_GRAPH_URL` with `WHATSAPP_ACCESS_TOKEN` as Bearer. Uses
 * Node's global `fetch`, whose undici pool keeps connections alive per origin. 429, 5xx and
 * refused connections are retried here a few times (capped exponential back-off with jitter,
 * `Retry-After` honoured, bounded in total), then thrown as temporary for the work queue; other
 * 4xx are thrown at once with Meta's code. Logs name calls and statuses only, never the token
 * or a message body.
 */
@Injectable()
export class HttpWhatsAppGraph implements WhatsAppGraph {
  private readonly logger = new Logger(HttpWhatsAppGraph.name);
  private readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly tuning: GraphClientTuning;
  private readonly throughput: NumberThroughput;

  constructor(
    @Inject(SMS_WHATSAPP_CONFIG)
    config: Pick<SmsWhatsappConfig, 'WHATSAPP_GRAPH_URL' | 'WHATSAPP_ACCESS_TOKEN'>,
    @Optional() @Inject(WHATSAPP_GRAPH_TUNING) tuning?: Partial<GraphClientTuning>,
  ) {
    this.baseUrl = config.WHATSAPP_GRAPH_URL.replace(/\/+$/, '');
    this.token = config.WHATSAPP_ACCESS_TOKEN || undefined;
    this.tuning = { ...DEFAULT_GRAPH_TUNING, ...tuning };
    this.throughput = new NumberThroughput(this.tuning.messagesPerSecond);
  }

  async registerNumber(phoneNumberId: string, pin: string): Promise<void> {
    await this.post(`/${enc(phoneNumberId)}/register`, '/{phone_number_id}/register', {
      messaging_product: 'whatsapp',
      pin,
    });
  }

  async subscribeApp(wabaId: string): Promise<void> {
    await this.post(`/${enc(wabaId)}/subscribed_apps`, '/{waba_id}/subscribed_apps');
  }

  getPhoneNumber(phoneNumberId: string): Promise<GraphPhoneNumber> {
    return this.get(`/${enc(phoneNumberId)}`, '/{phone_number_id}', { fields: PHONE_FIELDS });
  }

  getBusinessAccount(wabaId: string): Promise<GraphBusinessAccount> {
    return this.get(`/${enc(wabaId)}`, '/{waba_id}', { fields: ACCOUNT_FIELDS });
  }

  async listTemplates(wabaId: string): Promise<GraphTemplate[]> {
    const templates: GraphTemplate[] = [];
    const label = 'GET /{waba_id}/message_templates';
    let url: string | undefined = this.urlOf(`/${enc(wabaId)}/message_templates`, {
      fields: TEMPLATE_FIELDS,
      limit: '100',
    });
    for (let page = 0; url; page++) {
      if (page >= 1000) throw new GraphError(`${label}: more than 1000 pages`, false, 200, null);
      const body: { data?: GraphTemplate[]; paging?: { next?: string } } = await this.json({
        method: 'GET',
        url: this.sameOrigin(url, label),
        label,
        timeoutMs: this.tuning.timeoutMs,
      });
      templates.push(...(body.data ?? []));
      url = body.paging?.next;
    }
    return templates;
  }

  async getBusinessProfile(phoneNumberId: string): Promise<GraphBusinessProfile> {
    const label = '/{phone_number_id}/whatsapp_business_profile';
    const body = await this.get<{ data?: GraphBusinessProfile[] }>(
      `/${enc(phoneNumberId)}/whatsapp_business_profile`,
      label,
      { fields: PROFILE_FIELDS },
    );
    const profile: GraphBusinessProfile & { messaging_product?: string } = {
      ...(body.data?.[0] ?? {}),
    };
    delete profile.messaging_product;
    return profile;
  }

  async sendMessage(phoneNumberId: string, body: GraphMessageBody): Promise<{ messageId: string }> {
    this.requireToken();
    await this.throughput.acquire(phoneNumberId);
    const answer = await this.post<{ messages?: Array<{ id?: string }>; success?: boolean }>(
      `/${enc(phoneNumberId)}/messages`,
      '/{phone_number_id}/messages',
      body,
    );
    const messageId = answer.messages?.[0]?.id;
    if (body.status === 'read' || (messageId === undefined && answer.success))
      return { messageId: '' };
    if (!messageId)
      throw new GraphError(
        'Meta answered POST /{phone_number_id}/messages without a message id',
        true,
        200,
        null,
      );
    return { messageId };
  }

  getMedia(mediaId: string): Promise<GraphMediaInfo> {
    return this.get(`/${enc(mediaId)}`, '/{media_id}');
  }

  async downloadMedia(url: string): Promise<Buffer> {
    const label = 'GET media download';
    const target = new URL(url);
    if (target.origin !== new URL(this.baseUrl).origin && !MEDIA_HOSTS.test(target.hostname))
      throw new GraphError(`${label}: ${target.hostname} is not a Meta media host`, false, 0, null);
    const response = await this.call({
      method: 'GET',
      url,
      label,
      timeoutMs: this.tuning.downloadTimeoutMs,
    });
    const length = Number(response.headers.get('content-length'));
    if (length > this.tuning.maxDownloadBytes) {
      await response.body?.cancel();
      throw new GraphError(
        `${label}: ${length} bytes is more than media may be`,
        false,
        response.status,
        null,
      );
    }
    return Buffer.from(await response.arrayBuffer());
  }

  private get<T>(path: string, label: string, query: Record<string, string> = {}): Promise<T> {
    const url = this.urlOf(path, query);
    return this.json({
      method: 'GET',
      url,
      label: `GET ${label}`,
      timeoutMs: this.tuning.timeoutMs,
    });
  }

  private post<T>(path: string, label: string, body?: unknown): Promise<T> {
    const url = this.urlOf(path, {});
    return this.json({
      method: 'POST',
      url,
      label: `POST ${label}`,
      body,
      timeoutMs: this.tuning.timeoutMs,
    });
  }

  private async json<T>(spec: CallSpec): Promise<T> {
    const response = await this.call(spec);
    try {
      return (await response.json()) as T;
    } catch {
      throw new GraphError(
        `${spec.label}: Meta answered ${response.status} without JSON`,
        true,
        response.status,
        null,
      );
    }
  }

  /** One Graph call with its in-process retries; resolves to a 2xx response. */
  private async call(spec: CallSpec): Promise<Response> {
    const token = this.requireToken();
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      let failure: GraphError;
      let retryHere: boolean;
      try {
        const response = await fetch(spec.url, {
          method: spec.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: spec.body !== undefined ? JSON.stringify(spec.body) : undefined,
          signal: AbortSignal.timeout(spec.timeoutMs),
        });
        if (response.ok) return response;
        failure = await graphErrorOf(response, spec.label);
        retryHere = failure.status === 429 || failure.status >= 500;
      } catch (error) {
        failure = unreachable(error, spec.label, spec.timeoutMs);
        // A time-out already spent its budget (and the call may have reached Meta): the queue decides.
        retryHere = !isTimeout(error);
      }
      const delay = this.backoff(attempt, failure.retryAfterMs);
      const spent = Date.now() - started;
      if (!retryHere || attempt >= this.tuning.retries || spent + delay > this.tuning.retryBudgetMs)
        throw failure;
      this.logger.warn(
        `${spec.label}: ${failure.status || 'unreachable'}, attempt ${attempt + 1}; retrying in ${delay} ms`,
      );
      await sleep(delay);
    }
  }

  /** Capped exponential back-off with jitter (half fixed, half random), or Meta's `Retry-After`. */
  private backoff(attempt: number, retryAfterMs: number | null): number {
    if (retryAfterMs !== null) return retryAfterMs;
    const ceiling = Math.min(this.tuning.backoffCapMs, this.tuning.backoffBaseMs * 2 ** attempt);
    return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
  }

  private requireToken(): string {
    if (!this.token) throw new GraphError(GRAPH_TOKEN_UNSET, false, 0, null);
    return this.token;
  }

  private urlOf(path: string, query: Record<string, string>): string {
    const search = new URLSearchParams(query).toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /** `paging.next` is followed only on the Graph origin: the token goes nowhere else. */
  private sameOrigin(url: string, label: string): string {
    if (new URL(url).origin !== new URL(this.baseUrl).origin)
      throw new GraphError(`${label}: paging.next leaves the Graph origin`, false, 200, null);
    return url;
  }
}

const enc = encodeURIComponent;
