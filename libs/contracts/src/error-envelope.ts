import type { ErrorType } from './error-catalog';

export interface ErrorDetail {
  param: string;
  message: string;
}

/** The body of every failed response: `{ error: ErrorBody }`. */
export interface ErrorBody {
  type: ErrorType;
  code: string;
  name: string;
  message: string;
  doc_url: string;
  request_id: string;
  /** The field the error is about, on a validation error the first offending one (SDK `err.param`). */
  param?: string;
  /** Only on validation errors (`type` `validation_error`). */
  details?: ErrorDetail[];
  vendor_code?: string;
}

export interface ErrorEnvelope {
  error: ErrorBody;
}

/** How an error crosses the transport: the envelope without the request-bound fields. */
export interface TransportError {
  code: string;
  message: string;
  details?: ErrorDetail[];
  param?: string;
  vendor_code?: string;
  /** Response headers the error carries (`Retry-After` on 425 and 429 from a service). */
  headers?: Record<string, string>;
}

export function isTransportError(value: unknown): value is TransportError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.code === 'string' &&
    /^E\d{5}$/.test(candidate.code) &&
    typeof candidate.message === 'string'
  );
}
