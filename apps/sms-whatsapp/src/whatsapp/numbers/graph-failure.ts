import { WhatsAppConnectErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { GraphError } from '../graph/whatsapp-graph';

/**
 * A failed Graph call as the envelope: Meta's refusals keep Meta's code as `vendor_code` and
 * Meta's words as the message; what is worth retrying (429, 5xx, unreachable) is a 503.
 * Anything that is not a GraphError is a fault of ours and stays as it is.
 */
export function graphFailure(err: unknown, step: string): unknown {
  if (!(err instanceof GraphError)) return err;
  const vendorCode = err.metaCode === null ? undefined : String(err.metaCode);
  if (err.temporary)
    return new AppError(WhatsAppConnectErrors.WhatsAppUnavailable, {
      message: `Meta's Cloud API is unavailable (${step}): ${err.message}`,
      vendorCode,
    });
  return new AppError(WhatsAppConnectErrors.WhatsAppConnectRefused, {
    message: `WhatsApp refused ${step}: ${err.message}`,
    vendorCode,
  });
}

/** Runs one Graph call, failing as `graphFailure` says. */
export async function graphStep<T>(step: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw graphFailure(err, step);
  }
}
