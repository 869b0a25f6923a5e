import { HttpException, NotFoundException } from '@nestjs/common';
import { CommonErrors, ErrorCatalog } from '@switchboard/contracts';
import type { ErrorEnvelope } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';

/** Fastify's own failures, by code, and the catalog code each becomes. */
const FASTIFY_CODES: Record<string, { code: AppError['code']; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: CommonErrors.MalformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: CommonErrors.MalformedJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: CommonErrors.PayloadTooLarge },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: CommonErrors.BadRequest },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: CommonErrors.UnsupportedMediaType },
  FST_ERR_CTP_INVALID_TYPE: { code: CommonErrors.UnsupportedMediaType },
  FST_ERR_REQ_TIMEOUT: { code: CommonErrors.RequestTimeout },
  FST_ERR_BAD_URL: {
    code: CommonErrors.BadRequest,
    message: 'The path is not valid percent-encoded UTF-8.',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    code: CommonErrors.RouteNotFound,
    message: 'A path segment is longer than any identifier of this API.',
  },
  FST_ERR_ASYNC_CONSTRAINT: { code: CommonErrors.BadRequest },
  // Node's HTTP parser, before Fastify has a request (clientError).
  HPE_HEADER_OVERFLOW: { code: CommonErrors.HeadersTooLarge },
  ERR_HTTP_REQUEST_TIMEOUT: { code: CommonErrors.RequestTimeout },
};

/**
 * What any thrown value becomes on the wire: an AppError as it is, a known framework failure as
 * its catalog code, anything else `E09001` (the caller logs it; its message never leaves).
 */
export function toAppError(exception: unknown): AppError {
  if (exception instanceof AppError) return exception;
  const known =
    FASTIFY_CODES[codeOf(exception instanceof HttpException ? exception.cause : exception) ?? ''];
  if (known) return new AppError(known.code, known.message ? { message: known.message } : {});
  if (exception instanceof HttpException && exception.getStatus() === 400)
    return new AppError(CommonErrors.BadRequest);
  if (exception instanceof NotFoundException) return new AppError(CommonErrors.RouteNotFound);
  return new AppError(CommonErrors.InternalError);
}

/**
 * The spec's error envelope for an error answered to request `requestId`. `details` appear on
 * validation errors only, whoever threw the error: any other error drops them here (its message
 * says what it is about) and keeps the field they named as `param`, which the SDKs read.
 */
export function errorEnvelope(error: AppError, requestId: string, origin: string): ErrorEnvelope {
  const definition = ErrorCatalog[error.code];
  const param = error.param ?? error.details?.[0]?.param;
  const details = definition.type === 'validation_error' ? error.details : undefined;
  return {
    error: {
      type: definition.type,
      code: error.code,
      name: definition.name,
      message: error.message,
      doc_url: `${origin}/v1/docs/pages?slug=errors/${error.code}`,
      request_id: requestId,
      ...(param ? { param } : {}),
      ...(details ? { details } : {}),
      ...(error.vendorCode ? { vendor_code: error.vendorCode } : {}),
    },
  };
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
