import { Injectable } from '@nestjs/common';
import { AppError } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isValidIdempotencyKey, requestFingerprint } from './fingerprint';
import { IdempotencyStore } from './idempotency.store';
import type { StoredOutcome } from './idempotency.store';
import { CommonErrors } from '@switchboard/contracts';

const MUTATING = new Set(['POST', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyFingerprint?: string;
    /** Set when this request holds an idempotency key whose outcome must be recorded. */
    idempotencyClaim?: { scope: string; key: string };
  }
}

/**
 * `Idempotency-Key` on idempotent mutating routes: the first outcome (2xx or 4xx) is kept and
 * replayed with `Idempotency-Replay: true`; 5xx, 429 and 503 are not kept so a retry can succeed.
 * The owning service also enforces the key inside its write transaction, which is what makes the
 * operation happen once even when this gateway dies before it records the outcome.
 */
@Injectable()
export class IdempotencyGate {
  constructor(private readonly store: IdempotencyStore) {}

  /** Claims the key, or answers for the request: a replay (returns true), or 409 E01005 / E01004. */
  async enter(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const header = request.headers['idempotency-key'];
    // Anonymous callers would all share one scope, and one caller's key would answer another's.
    if (
      !MUTATING.has(request.method) ||
      header === undefined ||
      !request.caller ||
      request.caller.kind === 'anonymous'
    )
      return false;
    if (typeof header !== 'string' || !isValidIdempotencyKey(header)) {
      throw AppError.validation([
        { param: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
      ]);
    }
    const scope = request.caller?.workspaceId ?? request.caller?.kind ?? 'anonymous';
    const fingerprint = requestFingerprint(
      request.method,
      request.url.split('?')[0],
      request.body ?? null,
    );
    request.idempotencyFingerprint = fingerprint;
    const claim = await this.store.claim(scope, header, fingerprint);
    switch (claim.kind) {
      case 'mismatch':
        throw new AppError(CommonErrors.IdempotencyKeyReuse);
      case 'in_progress':
        throw new AppError(CommonErrors.RequestInProgress, {
          headers: { 'retry-after': String(claim.retryAfterSeconds) },
        });
      case 'replay':
        this.replay(reply, claim.outcome);
        return true;
      case 'claimed':
        request.idempotencyClaim = { scope, key: header };
        return false;
    }
  }

  /** Records the outcome of a claimed key before the response leaves, or releases the key. */
  async leave(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const claim = request.idempotencyClaim;
    if (!claim) return;
    request.idempotencyClaim = undefined;
    const status = reply.statusCode;
    const body =
      typeof payload === 'string' && payload.length > 0
        ? (JSON.parse(payload) as unknown)
        : undefined;
    if (status < 300) {
      await this.store.complete(claim.scope, claim.key, { status, body });
    } else if (
      status >= 400 &&
      status < 500 &&
      status !== 429 &&
      isEnvelope(body) &&
      body.error.code !== CommonErrors.RequestInProgress
    ) {
      const { code, message, details, param } = body.error;
      await this.store.complete(claim.scope, claim.key, {
        status,
        error: { code, message, details, param },
      });
    } else {
      await this.store.release(claim.scope, claim.key);
    }
  }

  private replay(reply: FastifyReply, outcome: StoredOutcome): void {
    void reply.header('idempotency-replay', 'true');
    if (outcome.error) {
      const stored = AppError.fromTransport(outcome.error);
      throw new AppError(stored.code, {
        message: stored.message,
        details: stored.details,
        param: stored.param,
        headers: { 'idempotency-replay': 'true' },
      });
    }
    void reply.code(outcome.status);
    if (outcome.body === undefined) void reply.send();
    else
      void reply
        .header('content-type', 'application/json; charset=utf-8')
        .send(JSON.stringify(outcome.body));
  }
}

function isEnvelope(value: unknown): value is {
  error: {
    code: string;
    message: string;
    details?: Array<{ param: string; message: string }>;
    param?: string;
  };
} {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { error?: { code?: unknown } }).error?.code === 'string'
  );
}
