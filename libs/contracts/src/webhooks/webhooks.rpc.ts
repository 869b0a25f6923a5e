import type { Page } from '../pagination';
import type { NoContent, Rpc } from '../rpc';
import type { WebhookSubjects } from './webhooks';
import type {
  CreateWebhookEndpointRequest,
  ListWebhookAttemptsRequest,
  ListWebhookEndpointsRequest,
  ReplayWebhookEventsRequest,
  RotateWebhookSecretReply,
  TestWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  WebhookAttempt,
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointIdRequest,
  WebhookReplayResult,
  WebhookTestResult,
} from './webhooks';

/** The webhooks service's operations, by subject. */
export interface WebhooksRpc {
  [WebhookSubjects.CreateEndpoint]: Rpc<CreateWebhookEndpointRequest, WebhookEndpointCreated>;
  [WebhookSubjects.ListEndpoints]: Rpc<ListWebhookEndpointsRequest, Page<WebhookEndpoint>>;
  [WebhookSubjects.GetEndpoint]: Rpc<WebhookEndpointIdRequest, WebhookEndpoint>;
  [WebhookSubjects.UpdateEndpoint]: Rpc<UpdateWebhookEndpointRequest, WebhookEndpoint>;
  [WebhookSubjects.DeleteEndpoint]: Rpc<WebhookEndpointIdRequest, NoContent>;
  [WebhookSubjects.RotateSecret]: Rpc<WebhookEndpointIdRequest, RotateWebhookSecretReply>;
  [WebhookSubjects.TestEndpoint]: Rpc<TestWebhookEndpointRequest, WebhookTestResult>;
  [WebhookSubjects.ListAttempts]: Rpc<ListWebhookAttemptsRequest, { data: WebhookAttempt[] }>;
  [WebhookSubjects.Replay]: Rpc<ReplayWebhookEventsRequest, WebhookReplayResult>;
}
