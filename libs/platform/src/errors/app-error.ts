import { CommonErrors, ErrorCatalog, isErrorCode, isTransportError } from '@switchboard/contracts';
import type { ErrorCode, ErrorDetail, TransportError } from '@switchboard/contracts';

/** The one error Switchboard throws on purpose; the gateway turns it into the spec's envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  /**
   * Per-field problems. The envelope carries them on validation errors only (the spec's rule);
   * any other error says what it is about in its message, and names the field in `param`.
   */
  readonly details?: ErrorDetail[];
  /** The field or identifier the error is about (the SDKs read it as `err.param`). */
  readonly param?: string;
  readonly vendorCode?: string;
  /** Extra response headers (Allow, Retry-After) the gateway should send with it. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: {
      message?: string;
      details?: ErrorDetail[];
      param?: string;
      vendorCode?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(options.message ?? ErrorCatalog[code].message);
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.param = options.param;
    this.vendorCode = options.vendorCode;
    this.headers = options.headers;
  }

  get status(): number {
    return ErrorCatalog[this.code].status;
  }

  static validation(details: ErrorDetail[]): AppError {
    return new AppError(CommonErrors.ValidationError, { details });
  }

  toTransport(): TransportError {
    const wire: TransportError = { code: this.code, message: this.message };
    if (this.details) wire.details = this.details;
    if (this.param) wire.param = this.param;
    if (this.vendorCode) wire.vendor_code = this.vendorCode;
    if (this.headers) wire.headers = this.headers;
    return wire;
  }

  /** Rebuilds an error that crossed the transport; anything unrecognised is internal. */
  static fromTransport(value: unknown): AppError {
    if (isTransportError(value) && isErrorCode(value.code)) {
      return new AppError(value.code, {
        message: value.message,
        details: value.details,
        param: typeof value.param === 'string' ? value.param : undefined,
        vendorCode: value.vendor_code,
        headers: safeHeaders(value.headers),
      });
    }
    return new AppError(CommonErrors.InternalError);
  }
}

/** Only the headers a service may set on an error response, as strings. */
function safeHeaders(headers: unknown): Record<string, string> | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const retryAfter = (headers as Record<string, unknown>)['retry-after'];
  return typeof retryAfter === 'string' && /^\d{1,6}$/.test(retryAfter)
    ? { 'retry-after': retryAfter }
    : undefined;
}
