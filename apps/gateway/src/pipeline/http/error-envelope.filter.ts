import { Catch, HttpException, Inject, Logger, NotFoundException } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import { ErrorCatalog } from '@switchboard/contracts';
import type { ErrorEnvelope } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG } from '../../config/gateway.config';
import type { GatewayConfig } from '../../config/gateway.config';
import { RouteTable } from '../routes/route-table';

/** Fastify's own failures, by code, and the catalog code each becomes. */
const FASTIFY_CODES: Record<string, AppError['code']> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'E01002',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'E01002',
  FST_ERR_CTP_BODY_TOO_LARGE: 'E01003',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'E01009',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'E01008',
  FST_ERR_CTP_INVALID_TYPE: 'E01008',
  FST_ERR_REQ_TIMEOUT: 'E01011',
};

/**
 * The one place anything becomes HTTP: every failure leaves as the spec's envelope with the
 * catalog's status, type and code. Unknown errors are logged with the request id and answered
 * as `internal_error`, never with a stack trace.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Gateway');

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly routes: RouteTable,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const error = this.toAppError(exception, request);
    if (error.code === 'E09001') {
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
      .send(this.envelope(error, request));
  }

  private toAppError(exception: unknown, request: FastifyRequest): AppError {
    if (exception instanceof AppError) return exception;
    if (exception instanceof NotFoundException && !request.routeOptions?.url)
      return this.unknownRoute(request);
    const fastifyCode = codeOf(exception instanceof HttpException ? exception.cause : exception);
    if (fastifyCode && FASTIFY_CODES[fastifyCode]) return new AppError(FASTIFY_CODES[fastifyCode]);
    if (exception instanceof HttpException && exception.getStatus() === 400)
      return new AppError('E01009');
    return new AppError('E09001');
  }

  private unknownRoute(request: FastifyRequest): AppError {
    const allowed = this.routes.methodsFor(request.url.split('?')[0]);
    if (allowed.length > 0) {
      return new AppError('E01007', {
        message: `${request.method} is not allowed here; use ${allowed.join(', ')}.`,
        headers: { allow: allowed.join(', ') },
      });
    }
    return new AppError('E01006', {
      message: `No operation exists at ${request.method} ${request.url.split('?')[0]}.`,
    });
  }

  private envelope(error: AppError, request: FastifyRequest): ErrorEnvelope {
    const definition = ErrorCatalog[error.code];
    const origin =
      request.publicOrigin || this.config.PUBLIC_URL || `${request.protocol}://${request.host}`;
    return {
      error: {
        type: definition.type,
        code: error.code,
        name: definition.name,
        message: error.message,
        doc_url: `${origin}/v1/docs/pages?slug=errors/${error.code}`,
        request_id: request.id,
        ...(error.details ? { details: error.details } : {}),
        ...(error.vendorCode ? { vendor_code: error.vendorCode } : {}),
      },
    };
  }
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
