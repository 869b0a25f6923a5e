import { Injectable } from '@nestjs/common';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AppError } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defer, of } from 'rxjs';
import type { Observable } from 'rxjs';
import { catchError, mergeMap } from 'rxjs/operators';
import { ROUTE_POLICY } from '../routes/route-policy';
import type { RoutePolicy } from '../routes/route-policy';
import { isValidIdempotencyKey, requestFingerprint } from './fingerprint';
import { IdempotencyStore } from './idempotency.store';

const MUTATING = new Set(['POST', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyFingerprint?: string;
  }
}

/**
 * `Idempotency-Key` on every idempotent mutating route: the first outcome (2xx or 4xx) is kept
 * and replayed with `Idempotency-Replay: true`; 5xx, 429 and 503 are not kept so a retry can
 * succeed. The owning service also enforces the key inside its write transaction, which is what
 * makes the operation happen once even when this gateway dies before it records the outcome.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly store: IdempotencyStore,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const policy = this.reflector.get<RoutePolicy | undefined>(ROUTE_POLICY, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['idempotency-key'];
    if (!policy?.idempotent || !MUTATING.has(request.method) || header === undefined) return next.handle();
    if (typeof header !== 'string' || !isValidIdempotencyKey(header)) {
      throw AppError.validation([{ param: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' }]);
    }
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const scope = request.caller?.workspaceId ?? request.caller?.kind ?? 'anonymous';
    const fingerprint = requestFingerprint(request.method, request.url.split('?')[0], request.body ?? null);
    request.idempotencyFingerprint = fingerprint;

    const claim = await this.store.claim(scope, header, fingerprint);
    switch (claim.kind) {
      case 'mismatch':
        throw new AppError('E01005');
      case 'in_progress':
        throw new AppError('E01004', { headers: { 'retry-after': String(claim.retryAfterSeconds) } });
      case 'replay':
        void reply.header('idempotency-replay', 'true');
        if (claim.outcome.error) {
          const stored = AppError.fromTransport(claim.outcome.error);
          throw new AppError(stored.code, { message: stored.message, details: stored.details, headers: { 'idempotency-replay': 'true' } });
        }
        return of(claim.outcome.body);
      case 'claimed':
        break;
    }
    const status = (Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined) ?? (request.method === 'POST' ? 201 : 200);
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.store.complete(scope, header, { status, body });
        return body;
      }),
      catchError((err: unknown) =>
        defer(async () => {
          const kept = err instanceof AppError && err.status >= 400 && err.status < 500 && err.status !== 429 && err.code !== 'E01004';
          if (kept) await this.store.complete(scope, header, { status: err.status, error: err.toTransport() });
          else await this.store.release(scope, header);
          throw err;
        }),
      ),
    );
  }
}
