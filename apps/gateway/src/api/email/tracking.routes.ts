import { randomUUID } from 'node:crypto';
import { EmailTrackingErrors, EmailTrackingSubjects, TrackingTokens } from '@switchboard/contracts';
import type { UnsubscribeReply } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { ServiceClient } from '@switchboard/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContextFor } from '../../pipeline/auth/caller';
import type { ErrorResponder } from '../../pipeline/http/error-envelope.filter';
import { newRequestId } from '../../pipeline/http/request-id';
import { declareNativeRoute } from '../../pipeline/routes/route-policy';
import { TrackingHitQueue } from './tracking-hits';
import { confirmationPage, unsubscribedPage } from './unsubscribe-pages';

declare module 'fastify' {
  interface FastifyRequest {
    /** An unsubscribe POST's form body as received (RFC 8058 one-click, or the page's button). */
    rawUnsubscribeBody?: Buffer;
  }
}

const tracking = {
  tag: 'Email tracking',
  // Mail clients and inbox proxies follow these links: the signed token is the credential.
  auth: 'none',
  // Per client address; inbox proxies (Gmail, Apple) fetch for many people from few addresses.
  rateLimit: 'tracking',
  ignoresQuery: true,
} as const;

const unsubscribe = {
  tag: 'Email unsubscribe',
  auth: 'none',
  rateLimit: 'unsubscribe',
  ignoresQuery: true,
} as const;

/** `GET /t/o/{token}`: the open pixel. */
export const EMAIL_TRACKING_OPEN = declareNativeRoute({
  method: 'GET',
  path: '/t/o/:tracking_token',
  area: 'EmailTracking',
  action: 'open',
  policy: {
    ...tracking,
    summary: 'Record an open of a tracked message (email.opened) and answer a 1x1 transparent GIF',
    response: { status: 200, description: 'A 1x1 transparent GIF (image/gif), never cached' },
  },
});

/** `GET /t/c/{token}`: a tracked link. */
export const EMAIL_TRACKING_CLICK = declareNativeRoute({
  method: 'GET',
  path: '/t/c/:tracking_token',
  area: 'EmailTracking',
  action: 'click',
  policy: {
    ...tracking,
    summary:
      'Record a click of a tracked link (email.clicked) and redirect to the URL the message carried; the destination is inside the signed token, so no other can be reached',
    response: { status: 302, description: 'Location: the original URL' },
  },
});

/** `GET /u/{token}`: the confirmation page; following the link changes nothing. */
export const EMAIL_UNSUBSCRIBE_PAGE = declareNativeRoute({
  method: 'GET',
  path: '/u/:unsubscribe_token',
  area: 'EmailUnsubscribe',
  action: 'page',
  policy: {
    ...unsubscribe,
    summary:
      'A page asking the recipient to confirm the unsubscribe, with a button that POSTs it; the GET itself changes nothing (mail scanners follow links)',
    response: { status: 200, description: 'The confirmation page (text/html, no scripts)' },
  },
});

/** `POST /u/{token}`: RFC 8058 one-click, or the page's button. */
export const EMAIL_UNSUBSCRIBE = declareNativeRoute({
  method: 'POST',
  path: '/u/:unsubscribe_token',
  area: 'EmailUnsubscribe',
  action: 'unsubscribe',
  policy: {
    ...unsubscribe,
    summary:
      "Unsubscribe the recipient from marketing mail at once (a preference revoke, origin unsubscribe_link): RFC 8058's List-Unsubscribe=One-Click (email.list_unsubscribed) or the page's button (email.unsubscribed)",
    // A repeat says the same thing again; mail clients retry without keys.
    idempotent: false,
    response: { status: 200, description: 'Unsubscribed (a page for the button, text otherwise)' },
    errors: [413],
  },
});

/** The 43-byte transparent 1x1 GIF. */
export const PIXEL = Buffer.from(
  'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  'base64',
);

/** Limits the unsubscribe form's body: a few fields, never a file. */
const FORM_LIMIT = 16 * 1024;

/**
 * Serves the tracking and unsubscribe routes on PUBLIC_URL. An open or a click is answered here
 * once its token checks out (the key is derived from ENCRYPTION_KEY, which the gateway holds) and
 * handed to the email service in batches (ADR 17); a forged or altered token is 404. The POST
 * takes a form body (urlencoded or multipart, as RFC 8058 allows), so the `/u/` routes live in a
 * scope whose only parser keeps the bytes, like Meta's webhooks; the policy pipeline sees no
 * body to validate. Answers the queue of hits, for the gateway to drain when it stops.
 */
export function registerEmailTrackingRoutes(
  fastify: FastifyInstance,
  services: ServiceClient,
  errors: ErrorResponder,
  encryptionKey: string,
): TrackingHitQueue {
  const tokens = new TrackingTokens(encryptionKey);
  const queue = new TrackingHitQueue(services, () => ({
    requestId: newRequestId(),
    caller: { kind: 'anonymous' },
  }));
  // A HEAD (a link checker's) is answered like the GET but is not an open or a click.
  const hit = (request: FastifyRequest, token: string) =>
    request.method === 'HEAD'
      ? undefined
      : queue.add({
          id: randomUUID(),
          token,
          at: new Date().toISOString(),
          ip_address: request.ip || null,
          user_agent: request.headers['user-agent'] ?? null,
        });
  fastify.get(EMAIL_TRACKING_OPEN.path, async (request, reply) => {
    const { tracking_token: token } = request.params as { tracking_token: string };
    if (tokens.verify(token)?.kind !== 'open')
      throw new AppError(EmailTrackingErrors.TrackingLinkNotFound);
    await hit(request, token);
    return noStore(reply).type('image/gif').send(PIXEL);
  });
  fastify.get(EMAIL_TRACKING_CLICK.path, async (request, reply) => {
    const { tracking_token: token } = request.params as { tracking_token: string };
    const claim = tokens.verify(token);
    if (claim?.kind !== 'click') throw new AppError(EmailTrackingErrors.TrackingLinkNotFound);
    await hit(request, token);
    // The token in this URL is not the destination's business.
    return noStore(reply)
      .header('referrer-policy', 'no-referrer')
      .redirect(locationOf(claim.url), 302);
  });
  void fastify.register((scope, _options, done) => {
    scope.setErrorHandler((error, request, reply) => errors.reply(error, request, reply));
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: FORM_LIMIT },
      (request, body, parsed) => {
        request.rawUnsubscribeBody = body as Buffer;
        parsed(null, undefined);
      },
    );
    scope.get(EMAIL_UNSUBSCRIBE_PAGE.path, async (request, reply) => {
      const { unsubscribe_token: token } = request.params as { unsubscribe_token: string };
      const page = await services.send(
        EmailTrackingSubjects.UnsubscribePage,
        { token },
        requestContextFor(request),
      );
      return html(reply).send(confirmationPage(page));
    });
    scope.post(EMAIL_UNSUBSCRIBE.path, { bodyLimit: FORM_LIMIT }, async (request, reply) => {
      const { unsubscribe_token: token } = request.params as { unsubscribe_token: string };
      const via = unsubscribeVia(request.headers['content-type'], request.rawUnsubscribeBody);
      if (!via) throw new AppError(EmailTrackingErrors.UnsubscribeRequestInvalid);
      const done: UnsubscribeReply = await services.send(
        EmailTrackingSubjects.Unsubscribe,
        {
          token,
          via,
          ip_address: request.ip || null,
          user_agent: request.headers['user-agent'] ?? null,
        },
        requestContextFor(request),
      );
      if (via === 'page') return html(reply).send(unsubscribedPage(done));
      return noStore(reply).type('text/plain; charset=utf-8').send('Unsubscribed.\n');
    });
    done();
  });
  return queue;
}

/**
 * What an unsubscribe POST is: RFC 8058's `List-Unsubscribe=One-Click` (urlencoded, or a
 * multipart field of that name), the page's own `unsubscribe=confirm`, or neither (undefined).
 */
export function unsubscribeVia(
  contentType: string | undefined,
  body: Buffer | undefined,
): 'one_click' | 'page' | undefined {
  const text = body?.toString('utf8') ?? '';
  if (/^\s*multipart\/form-data/i.test(contentType ?? ''))
    return /name="?List-Unsubscribe"?\r?\n(?:[^\r\n]+\r?\n)*\r?\nOne-Click\r?\n/i.test(text)
      ? 'one_click'
      : undefined;
  const fields = new URLSearchParams(text);
  if (fields.get('List-Unsubscribe') === 'One-Click') return 'one_click';
  if (fields.get('unsubscribe') === 'confirm') return 'page';
  return undefined;
}

/**
 * The URL as a Location header can carry it: exactly as the message had it, with only what a
 * header cannot hold (spaces, non-ASCII, controls) percent-encoded as UTF-8, as a browser would.
 */
export function locationOf(url: string): string {
  return url.replace(/[^\x21-\x7e]/gu, (char) => encodeURIComponent(char));
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store, no-cache, must-revalidate, private');
}

/** A page of this origin: no scripts, no framing, no sniffing, no referrer with the token. */
function html(reply: FastifyReply): FastifyReply {
  return noStore(reply)
    .type('text/html; charset=utf-8')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    )
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}
