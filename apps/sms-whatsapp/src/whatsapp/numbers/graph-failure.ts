import { WhatsAppConnectErrors } from '@switchboard/contracts';
import { AppError } from '@switchboard/platform';
import { graphLinkError } from '../graph/graph-app-error';
import { GraphError } from '../graph/whatsapp-graph';

/**
 * A failed Graph call as the envelope. What concerns the deployment's link to Meta (no token,
 * the token refused, Meta unreachable or overloaded) is the Graph client's 503; Meta's refusal
 * of the request itself keeps Meta's code as `vendor_code` and Meta's words as the message.
 * Anything that is not a GraphError is a fault of ours and stays as it is.
 */
export function graphFailure(err: unknown, step: string): unknown {
  const link = graphLinkError(err);
  if (link) return link;
  if (!(err instanceof GraphError)) return err;
  return new AppError(WhatsAppConnectErrors.WhatsAppConnectRefused, {
    message: `WhatsApp refused ${step}: ${err.message}`,
    ...(err.metaCode === null ? {} : { vendorCode: String(err.metaCode) }),
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
