import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { WebhookSubjects } from '@switchboard/contracts';
import type {
  CreateWebhookEndpointRequest,
  ListWebhookAttemptsRequest,
  ListWebhookEndpointsRequest,
  ReplayWebhookEventsRequest,
  TestWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookEndpointIdRequest,
} from '@switchboard/contracts';
import { Handles, requestContextOf } from '@switchboard/platform';
import { EndpointsService } from './endpoints.service';

/** Transport handlers of webhook endpoints; the gateway has validated every payload's shape. */
@Controller()
export class EndpointsHandler {
  constructor(private readonly endpoints: EndpointsService) {}

  @Handles(WebhookSubjects.CreateEndpoint)
  create(@Payload() input: CreateWebhookEndpointRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.create(requestContextOf(context), input);
  }

  @Handles(WebhookSubjects.ListEndpoints)
  list(@Payload() input: ListWebhookEndpointsRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.list(requestContextOf(context), input);
  }

  @Handles(WebhookSubjects.GetEndpoint)
  get(@Payload() input: WebhookEndpointIdRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.get(requestContextOf(context), input.webhook_id);
  }

  @Handles(WebhookSubjects.UpdateEndpoint)
  update(@Payload() input: UpdateWebhookEndpointRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.update(requestContextOf(context), input);
  }

  @Handles(WebhookSubjects.DeleteEndpoint)
  remove(@Payload() input: WebhookEndpointIdRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.remove(requestContextOf(context), input.webhook_id);
  }

  @Handles(WebhookSubjects.RotateSecret)
  rotateSecret(@Payload() input: WebhookEndpointIdRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.rotateSecret(requestContextOf(context), input.webhook_id);
  }

  @Handles(WebhookSubjects.TestEndpoint)
  test(@Payload() input: TestWebhookEndpointRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.test(requestContextOf(context), input);
  }

  @Handles(WebhookSubjects.ListAttempts)
  attempts(@Payload() input: ListWebhookAttemptsRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.attempts(requestContextOf(context), input);
  }

  @Handles(WebhookSubjects.Replay)
  replay(@Payload() input: ReplayWebhookEventsRequest, @Ctx() context: BaseRpcContext) {
    return this.endpoints.replay(requestContextOf(context), input);
  }
}
