import { WhatsAppWebhookSubjects } from '@switchboard/contracts';
import type { ServiceClient } from '@switchboard/platform';
import type { FastifyInstance } from 'fastify';
import { requestContextFor } from '../../pipeline/auth/caller';
import type { ErrorResponder } from '../../pipeline/http/error-envelope.filter';
import { declareNativeRoute } from '../../pipeline/routes/route-policy';
import { WhatsAppWebhookChallengeQuery } from './whatsapp-webhooks.dto';

declare module 'fastify' {
  interface FastifyRequest {
    /** The bytes of a webhook POST exactly as received: what its signature is computed over. */
    rawWebhookBody?: Buffer;
  }
}

const webhooks = {
  tag: 'WhatsApp webhooks',
  // Meta calls without credentials; the verify token and the body's signature stand for them.
  auth: 'none',
  // Meta retries until it gets a 200: a limit would only make it retry harder.
  rateLimit: 'none',
} as const;

/** `GET /webhooks/whatsapp`: Meta's subscription challenge. */
export const WHATSAPP_WEBHOOK_CHALLENGE = declareNativeRoute({
  method: 'GET',
  path: '/webhooks/whatsapp',
  area: 'WhatsAppWebhooks',
  action: 'challenge',
  policy: {
    ...webhooks,
    summary:
      "Answer Meta's subscription challenge: hub.challenge as text/plain when hub.verify_token is WHATSAPP_VERIFY_TOKEN",
    query: WhatsAppWebhookChallengeQuery,
    response: { status: 200, description: 'hub.challenge, as text/plain' },
    errors: [403],
  },
});

/** `POST /webhooks/whatsapp`: Meta's signed webhooks, recorded before the 200. */
export const WHATSAPP_WEBHOOK_RECEIVE = declareNativeRoute({
  method: 'POST',
  path: '/webhooks/whatsapp',
  area: 'WhatsAppWebhooks',
  action: 'receive',
  policy: {
    ...webhooks,
    summary:
      'Receive a webhook from Meta: verified against X-Hub-Signature-256 and recorded durably before the 200; processed afterwards, each change applied once',
    // Meta's retries are recognised by what they carry (wamids, event types), not by a key.
    idempotent: false,
    response: { status: 200, description: 'The webhook is recorded; Meta stops retrying it' },
    errors: [401, 413],
  },
});

/**
 * Serves Meta's webhook endpoint. The POST needs the body's bytes as sent (the signature is over
 * them, and a JSON round trip changes them), so both routes live in a scope of their own whose
 * only body parser keeps the Buffer; every other route keeps the JSON-only parser.
 */
export function registerWhatsAppWebhookRoutes(
  fastify: FastifyInstance,
  services: ServiceClient,
  errors: ErrorResponder,
  bodyLimit: number,
): void {
  void fastify.register((scope, _options, done) => {
    scope.setErrorHandler((error, request, reply) => errors.reply(error, request, reply));
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (request, body, parsed) => {
      request.rawWebhookBody = body as Buffer;
      // The policy pipeline sees no body to validate: the service verifies and reads it.
      parsed(null, undefined);
    });
    scope.get(WHATSAPP_WEBHOOK_CHALLENGE.path, async (request, reply) => {
      const query = request.validatedQuery as WhatsAppWebhookChallengeQuery;
      const { challenge } = await services.send(
        WhatsAppWebhookSubjects.Challenge,
        {
          mode: query['hub.mode'],
          verifyToken: query['hub.verify_token'],
          challenge: query['hub.challenge'],
        },
        requestContextFor(request),
      );
      return reply
        .type('text/plain; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(challenge);
    });
    scope.post(WHATSAPP_WEBHOOK_RECEIVE.path, { bodyLimit }, async (request, reply) => {
      const signature = request.headers['x-hub-signature-256'];
      await services.send(
        WhatsAppWebhookSubjects.Receive,
        {
          bodyBase64: (request.rawWebhookBody ?? Buffer.alloc(0)).toString('base64'),
          signature: typeof signature === 'string' ? signature : undefined,
        },
        requestContextFor(request),
      );
      return reply.code(200).send();
    });
    done();
  });
}
