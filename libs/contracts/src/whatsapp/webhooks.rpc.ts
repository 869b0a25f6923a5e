import type { NoContent, Rpc } from '../rpc';

/** Meta's webhook endpoint (`GET|POST /webhooks/whatsapp`), answered by the sms-whatsapp service. */
export const WhatsAppWebhookSubjects = {
  Challenge: 'whatsapp.webhook.challenge',
  Receive: 'whatsapp.webhook.receive',
} as const;

/** The subscription challenge's query (`hub.mode`, `hub.verify_token`, `hub.challenge`). */
export interface WhatsAppWebhookChallengeRequest {
  mode?: string;
  verifyToken?: string;
  challenge?: string;
}

/** A webhook POST as received: the raw body (base64, so every byte survives) and its signature. */
export interface WhatsAppWebhookReceiveRequest {
  bodyBase64: string;
  /** `X-Hub-Signature-256` as sent (`sha256=<hex>`), absent when Meta sent none. */
  signature?: string;
}

export interface WhatsAppWebhooksRpc {
  [WhatsAppWebhookSubjects.Challenge]: Rpc<WhatsAppWebhookChallengeRequest, { challenge: string }>;
  [WhatsAppWebhookSubjects.Receive]: Rpc<WhatsAppWebhookReceiveRequest, NoContent>;
}
