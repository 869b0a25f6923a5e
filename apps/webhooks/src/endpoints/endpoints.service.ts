import { Inject, Injectable } from '@nestjs/common';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, WebhookErrors } from '@switchboard/contracts';
import type {
  CreateWebhookEndpointRequest,
  ListWebhookAttemptsRequest,
  ListWebhookEndpointsRequest,
  ReplayWebhookEventsRequest,
  RequestContext,
  RotateWebhookSecretReply,
  TestWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookReplayResult,
  WebhookTestResult,
} from '@switchboard/contracts';
import { CursorCodec, IdempotentWrites, newId, pgPoolOf } from '@switchboard/persistence';
import { wakeQueue } from '@switchboard/background';
import type { Page } from '@switchboard/persistence';
import { AppError, dnsResolver, SealedBox, workspaceOf } from '@switchboard/platform';
import { WEBHOOKS_CONFIG } from '../config/webhooks.config';
import type { WebhooksConfig } from '../config/webhooks.config';
import { DELIVER_QUEUE } from '../delivery/delivery.queue';
import { sendWebhook } from '../delivery/http-sender';
import { signedHeaders } from '../delivery/signing';
import { toAttemptDto, toEndpointDto } from './endpoint.mapper';
import {
  checkedAttempts,
  checkedCreate,
  checkedReplay,
  checkedTest,
  checkedUpdate,
} from './endpoint-requests';
import { EndpointsRepository } from './endpoints.repository';
import type { EndpointRow } from './endpoints.repository';
import { newSigningSecret } from './signing-secret';
import { urlProblem } from './url-policy';
import type { HostResolver } from './url-policy';

/** A test gets 10 seconds (the SDK's promise), whatever the delivery time-out. */
const TEST_TIMEOUT_MS = 10_000;
const DAY_MS = 86_400_000;

/** Webhook endpoints: the rules of the SDK's `webhooks` resource. */
@Injectable()
export class EndpointsService {
  private readonly resolver: HostResolver;

  constructor(
    @Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig,
    private readonly repository: EndpointsRepository,
    private readonly writes: IdempotentWrites,
    private readonly box: SealedBox,
    private readonly cursors: CursorCodec,
  ) {
    this.resolver = dnsResolver(config.DNS_SERVERS, config.DNS_TIMEOUT_MS);
  }

  async create(
    context: RequestContext,
    request: CreateWebhookEndpointRequest,
  ): Promise<WebhookEndpointCreated> {
    const input = checkedCreate(request);
    const workspaceId = workspaceOf(context);
    await this.checkUrl(input.url);
    return this.writes.run(context, async (manager) => {
      const secret = newSigningSecret();
      const row = await this.repository.insert(
        manager,
        {
          id: newId('whk'),
          workspace_id: workspaceId,
          url: input.url,
          description: input.description ?? null,
          events: input.events,
        },
        { id: newId('whs'), sealed: this.box.seal(secret) },
      );
      return { ...toEndpointDto(row), secret };
    });
  }

  async list(
    context: RequestContext,
    input: ListWebhookEndpointsRequest,
  ): Promise<Page<WebhookEndpoint>> {
    const page = await this.repository.list(workspaceOf(context), input, this.cursors);
    return { ...page, data: page.data.map(toEndpointDto) };
  }

  async get(context: RequestContext, id: string): Promise<WebhookEndpoint> {
    return toEndpointDto(await this.found(workspaceOf(context), id));
  }

  async update(
    context: RequestContext,
    request: UpdateWebhookEndpointRequest,
  ): Promise<WebhookEndpoint> {
    const input = checkedUpdate(request);
    const workspaceId = workspaceOf(context);
    await this.found(workspaceId, input.webhook_id);
    if (input.url !== undefined) await this.checkUrl(input.url);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.update(manager, workspaceId, input.webhook_id, {
        url: input.url,
        description: input.description,
        events: input.events,
        status: input.status,
      });
      if (!row) throw new AppError(WebhookErrors.WebhookEndpointNotFound);
      return toEndpointDto(row);
    });
  }

  /** Deleting cascades to its deliveries: pending retries find nothing to send and end. */
  async remove(context: RequestContext, id: string): Promise<null> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      if (!(await this.repository.delete(manager, workspaceId, id)))
        throw new AppError(WebhookErrors.WebhookEndpointNotFound);
      return null;
    });
  }

  async rotateSecret(context: RequestContext, id: string): Promise<RotateWebhookSecretReply> {
    const workspaceId = workspaceOf(context);
    return this.writes.run(context, async (manager) => {
      const row = await this.repository.find(workspaceId, id, manager, true);
      if (!row) throw new AppError(WebhookErrors.WebhookEndpointNotFound);
      const valid = await this.repository.validSecrets(row.id, manager);
      if (valid.length >= WEBHOOK_LIMITS.validSecrets)
        throw new AppError(WebhookErrors.WebhookTooManySecrets);
      const secret = newSigningSecret();
      await this.repository.rotate(
        manager,
        row.id,
        { id: newId('whs'), sealed: this.box.seal(secret) },
        WEBHOOK_LIMITS.rotationOverlapHours,
      );
      return { secret };
    });
  }

  /**
   * Sends a signed synthetic event at once and says what the receiver answered. Not an attempt:
   * nothing is recorded. Paused endpoints may be tested.
   */
  async test(
    context: RequestContext,
    request: TestWebhookEndpointRequest,
  ): Promise<WebhookTestResult> {
    const input = checkedTest(request);
    const row = await this.found(workspaceOf(context), input.webhook_id);
    const type = input.event_type ?? row.events[0];
    if (!type)
      throw new AppError(WebhookErrors.WebhookTestNotPossible, {
        message: 'The endpoint subscribes to no event type.',
      });
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type))
      throw AppError.validation([
        { param: 'event_type', message: 'must be an event type of the catalog' },
      ]);
    const secrets = (await this.repository.validSecrets(row.id)).map((sealed) =>
      this.box.open(sealed),
    );
    if (secrets.length === 0) throw new AppError(WebhookErrors.WebhookTestNotPossible);
    const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: {} });
    const outcome = await sendWebhook(row.url, body, signedHeaders(newId('msg'), body, secrets), {
      timeoutMs: Math.min(TEST_TIMEOUT_MS, this.config.WEBHOOKS_TIMEOUT_MS),
      allowPrivate: this.config.WEBHOOKS_ALLOW_PRIVATE_URLS,
      resolver: this.resolver,
      maxBodyBytes: WEBHOOK_LIMITS.responseBodyBytes,
    });
    return {
      status: outcome.ok ? 'delivered' : 'failed',
      response_status_code: outcome.statusCode,
      ...(outcome.body ? { response_body: outcome.body } : {}),
      response_duration_ms: outcome.durationMs,
      ...(outcome.error ? { error: outcome.error } : {}),
    };
  }

  async attempts(
    context: RequestContext,
    request: ListWebhookAttemptsRequest,
  ): Promise<{ data: WebhookAttempt[] }> {
    const input = checkedAttempts(request);
    const row = await this.found(workspaceOf(context), input.webhook_id);
    const rows = await this.repository.attempts(row.id, input.limit, input.before, input.after);
    return { data: rows.map(toAttemptDto) };
  }

  /** Queues what the endpoint missed in [since, until), under new `webhook-id`s. */
  async replay(
    context: RequestContext,
    request: ReplayWebhookEventsRequest,
  ): Promise<WebhookReplayResult> {
    const input = checkedReplay(request);
    const workspaceId = workspaceOf(context);
    const until = input.until ? new Date(input.until) : new Date();
    const since = input.since ? new Date(input.since) : new Date(until.getTime() - DAY_MS);
    if (!(since < until))
      throw AppError.validation([{ param: 'since', message: 'must be before until' }]);
    const result = await this.writes.run(context, async (manager) => {
      const row = await this.repository.find(workspaceId, input.webhook_id, manager, true);
      if (!row) throw new AppError(WebhookErrors.WebhookEndpointNotFound);
      if (row.status === 'paused') throw new AppError(WebhookErrors.WebhookEndpointPaused);
      const queued = await this.repository.replay(manager, row, since, until);
      return { queued, since: since.toISOString(), until: until.toISOString() };
    });
    if (result.queued > 0)
      wakeQueue(pgPoolOf(this.repository.dataSource), 'webhooks', DELIVER_QUEUE);
    return result;
  }

  private async found(workspaceId: string, id: string): Promise<EndpointRow> {
    const row = await this.repository.find(workspaceId, id);
    if (!row) throw new AppError(WebhookErrors.WebhookEndpointNotFound);
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, this.config.WEBHOOKS_ALLOW_PRIVATE_URLS, this.resolver);
    if (problem) throw AppError.validation([{ param: 'url', message: problem }]);
  }
}
