import { Catch, Logger, NotFoundException } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import { AppError } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../../config/gateway.config';
import type { RouteTable } from '../routes/route-table';
import { errorEnvelope, toAppError } from './error-envelope';
import { CommonErrors } from '@switchboard/contracts';

/**
 * Answers a failed request with the spec's envelope: the catalog's status, type and code, the
 * request id, `Allow` on a 405. Unknown errors are logged with the request id and answered as
 * `internal_error`, never with a stack trace. Nest's filter and Fastify's framework-error hook
 * both answer through it.
 */
export class ErrorResponder {
  private readonly logger = new Logger('Gateway');

  constructor(
    private readonly config: Pick<GatewayConfig, 'PUBLIC_URL'>,
    private readonly routes: RouteTable,
  ) {}

  reply(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const error =
      exception instanceof NotFoundException && !request.routeOptions?.url
        ? this.unknownRoute(request)
        : toAppError(exception);
    if (error.code === CommonErrors.InternalError) {
      this.logger.error(
        {
          err: exception,
          request_id: request.id,
          method: request.method,
          url: request.routeOptions?.url,
        },
        'unhandled error',
      );
    }
    reply.header('x-request-id', request.id);
    for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
    void reply
      .status(error.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorEnvelope(error, request.id, this.origin(request)));
  }

  /** The origin doc_url links point at when no request could be read (a malformed request line). */
  get fallbackOrigin(): string {
    return this.config.PUBLIC_URL ?? 'http://localhost';
  }

  private origin(request: FastifyRequest): string {
    if (this.config.PUBLIC_URL) return this.config.PUBLIC_URL;
    // Fastify's framework errors come with a partial request that has no protocol or host yet.
    const host = (request.host as string | undefined) ?? request.raw?.headers?.host;
    return `${(request.protocol as string | undefined) ?? 'http'}://${host ?? 'localhost'}`;
  }

  private unknownRoute(request: FastifyRequest): AppError {
    const path = request.url.split('?')[0];
    const allowed = this.routes.methodsFor(path);
    if (allowed.length > 0) {
      return new AppError(CommonErrors.MethodNotAllowed, {
        message: `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
        headers: { allow: allowed.join(', ') },
      });
    }
    return new AppError(CommonErrors.RouteNotFound, {
      message: `No operation exists at ${request.method} ${path}.`,
    });
  }
}

/** Nest's side: every exception a controller or hook raises goes to the one responder. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(private readonly responder: ErrorResponder) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.responder.reply(
      exception,
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
    );
  }
}
