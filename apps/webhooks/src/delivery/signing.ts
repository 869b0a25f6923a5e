import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks headers for one request: `webhook-id` (the delivery's id, the same on every
 * retry), `webhook-timestamp` (unix seconds) and `webhook-signature`, one `v1,<base64>` per
 * valid secret: HMAC-SHA256 over `id.timestamp.body` keyed with the secret's bytes (base64 after
 * `whsec_`). A receiver verifying with any one of the secrets accepts the request.
 */
export function signedHeaders(
  webhookId: string,
  body: string,
  secrets: readonly string[],
  now: Date = new Date(),
): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const signatures = secrets.map((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const mac = createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`);
    return `v1,${mac.digest('base64')}`;
  });
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signatures.join(' '),
  };
}
