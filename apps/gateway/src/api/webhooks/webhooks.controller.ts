import { Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import { WebhookSubjects } from '@switchboard/contracts';
import type {
  RequestContext,
  RotateWebhookSecretReply,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookReplayResult,
  WebhookTestResult,
} from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import { CallContext, ValidBody, ValidQuery } from '../../pipeline/auth/caller';
import { Route } from '../../pipeline/routes/route-policy';
import { SERVICE_CLIENT } from '../../pipeline/service-client.provider';
import {
  CreateWebhookDto,
  ListAttemptsQuery,
  ListWebhooksQuery,
  ReplayWebhookDto,
  TestWebhookDto,
  toAttemptsRequest,
  toCreateRequest,
  toListRequest,
  toReplayRequest,
  toTestRequest,
  toUpdateRequest,
  UpdateWebhookDto,
} from './webhooks.dto';

const webhooks = { tag: 'Webhooks', auth: 'api' } as const;
/** A test waits up to 10 s for the receiver; the transport allows for that and the hop. */
const TEST_TIMEOUT_MS = 12_000;

/**
 * Webhook endpoints (reference section 17, the SDK's `webhooks` resource), answered by the
 * webhooks service. `admin` keys manage them; `read` keys may read them and their attempts.
 */
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @Route({
    ...webhooks,
    summary: 'Create a webhook endpoint; the signing secret is in this response only',
    role: 'admin',
    rateLimit: 'write',
    body: CreateWebhookDto,
    response: { status: 201, description: 'The endpoint, with its secret (whsec_...)' },
    errors: [412],
  })
  create(
    @ValidBody() body: CreateWebhookDto,
    @CallContext() context: RequestContext,
  ): Promise<WebhookEndpointCreated> {
    return this.services.send(WebhookSubjects.CreateEndpoint, toCreateRequest(body), context);
  }

  @Get()
  @Route({
    ...webhooks,
    summary: 'List webhook endpoints (sort, cursor pagination, total)',
    role: 'read',
    rateLimit: 'api_list',
    paginated: true,
    query: ListWebhooksQuery,
    response: { status: 200, description: 'A page of endpoints' },
  })
  list(@ValidQuery() query: ListWebhooksQuery, @CallContext() context: RequestContext) {
    return this.services.send(WebhookSubjects.ListEndpoints, toListRequest(query), context);
  }

  @Get(':webhook_id')
  @Route({
    ...webhooks,
    summary: 'Get a webhook endpoint and its delivery status',
    role: 'read',
    rateLimit: 'read',
    response: { status: 200, description: 'The endpoint' },
  })
  get(
    @Param('webhook_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<WebhookEndpoint> {
    return this.services.send(WebhookSubjects.GetEndpoint, { webhook_id: id }, context);
  }

  @Patch(':webhook_id')
  @Route({
    ...webhooks,
    summary: 'Update a webhook endpoint: url, description, events (replaced), pause or re-enable',
    role: 'admin',
    rateLimit: 'write',
    body: UpdateWebhookDto,
    response: { status: 200, description: 'The endpoint' },
    errors: [412],
  })
  update(
    @Param('webhook_id') id: string,
    @ValidBody() body: UpdateWebhookDto,
    @CallContext() context: RequestContext,
  ): Promise<WebhookEndpoint> {
    return this.services.send(WebhookSubjects.UpdateEndpoint, toUpdateRequest(id, body), context);
  }

  @Delete(':webhook_id')
  @HttpCode(204)
  @Route({
    ...webhooks,
    summary: 'Delete a webhook endpoint and stop every delivery to it, retries included',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 204, description: 'Deleted' },
    errors: [412],
  })
  async remove(
    @Param('webhook_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<void> {
    await this.services.send(WebhookSubjects.DeleteEndpoint, { webhook_id: id }, context);
  }

  @Post(':webhook_id/rotate-secret')
  @HttpCode(200)
  @Route({
    ...webhooks,
    summary: 'Rotate the signing secret; the previous one keeps signing for 24 hours',
    role: 'admin',
    rateLimit: 'write',
    response: { status: 200, description: 'The new secret (whsec_...), shown only here' },
    errors: [412],
  })
  rotateSecret(
    @Param('webhook_id') id: string,
    @CallContext() context: RequestContext,
  ): Promise<RotateWebhookSecretReply> {
    return this.services.send(WebhookSubjects.RotateSecret, { webhook_id: id }, context);
  }

  @Post(':webhook_id/test')
  @HttpCode(200)
  @Route({
    ...webhooks,
    summary: 'Send a signed test event now and report what the endpoint answered (10 s)',
    role: 'admin',
    rateLimit: 'write',
    body: TestWebhookDto,
    response: { status: 200, description: 'delivered or failed, with the answer' },
    errors: [412],
  })
  test(
    @Param('webhook_id') id: string,
    @ValidBody() body: TestWebhookDto,
    @CallContext() context: RequestContext,
  ): Promise<WebhookTestResult> {
    return this.services.send(WebhookSubjects.TestEndpoint, toTestRequest(id, body), context, {
      timeoutMs: TEST_TIMEOUT_MS,
    });
  }

  @Get(':webhook_id/attempts')
  @Route({
    ...webhooks,
    summary: 'List delivery attempts, newest first, bounded by before / after',
    role: 'read',
    rateLimit: 'read',
    query: ListAttemptsQuery,
    response: { status: 200, description: '{data: attempts}' },
  })
  attempts(
    @Param('webhook_id') id: string,
    @ValidQuery() query: ListAttemptsQuery,
    @CallContext() context: RequestContext,
  ): Promise<{ data: WebhookAttempt[] }> {
    return this.services.send(WebhookSubjects.ListAttempts, toAttemptsRequest(id, query), context);
  }

  @Post(':webhook_id/replay')
  @HttpCode(202)
  @Route({
    ...webhooks,
    summary: 'Re-deliver the events of a time range the endpoint did not receive (default 24 h)',
    role: 'admin',
    rateLimit: 'write',
    body: ReplayWebhookDto,
    response: { status: 202, description: '{queued, since, until}' },
    errors: [412],
  })
  replay(
    @Param('webhook_id') id: string,
    @ValidBody() body: ReplayWebhookDto,
    @CallContext() context: RequestContext,
  ): Promise<WebhookReplayResult> {
    return this.services.send(WebhookSubjects.Replay, toReplayRequest(id, body), context);
  }
}
