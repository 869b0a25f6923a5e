import { WhatsAppGraphErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { isGraphTokenUnset } from './graph-response';
import { GraphError } from './whatsapp-graph';

/**
 * The answer for a `GraphError` that is about this deployment's link to Meta rather than the
 * request: no token (E05008), the token refused (E05009), Meta unreachable or overloaded (E05007,
 * with `Retry-After` when Meta gave one). `null` for Meta's refusal of the request itself, which
 * the area maps to its own code with Meta's code as `vendor_code`.
 */
export function graphLinkError(error: unknown): AppError | null {
  if (!(error instanceof GraphError)) return null;
  if (isGraphTokenUnset(error)) return new AppError(WhatsAppGraphErrors.WhatsAppNotConfigured);
  if (error.status === 401 || error.metaCode === 190)
    return new AppError(WhatsAppGraphErrors.WhatsAppGraphTokenRefused, { vendorCode: '190' });
  if (!error.temporary) return null;
  const seconds = error.retryAfterMs === null ? null : Math.ceil(error.retryAfterMs / 1000);
  return new AppError(WhatsAppGraphErrors.WhatsAppGraphUnavailable, {
    ...(error.metaCode !== null ? { vendorCode: String(error.metaCode) } : {}),
    ...(seconds !== null ? { headers: { 'Retry-After': String(seconds) } } : {}),
  });
}
