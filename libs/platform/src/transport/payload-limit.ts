import { connect } from '@nats-io/transport-node';
import { CommonErrors } from '@switchboard/contracts';
import { AppError } from '../errors/app-error';

const MB = 1024 * 1024;

/** The largest request body the API accepts: email send and batch (the spec's 20 MB). */
export const LARGEST_BODY_BYTES = 20 * MB;

/**
 * What one NATS message must be able to carry: the largest body, re-serialised as JSON (never
 * longer than the body it was parsed from), plus the request context headers and the reply
 * envelope, for which 1 MB is ample.
 */
export function requiredMaxPayload(largestBodyBytes = LARGEST_BODY_BYTES): number {
  return largestBodyBytes + MB;
}

export const REQUIRED_MAX_PAYLOAD_BYTES = requiredMaxPayload();

/**
 * The `max_payload` every nats-server this repository starts or deploys is given (start-distributed,
 * the e2e topology, docker-compose.yml, deploy/nats.yaml): above what is required, below the
 * server's 64 MB cap. nats-server's default is 1 MB.
 */
export const NATS_MAX_PAYLOAD_BYTES = 32 * MB;

/** The line of a nats-server configuration file that sets it. */
export const NATS_MAX_PAYLOAD_CONFIG = `max_payload: ${NATS_MAX_PAYLOAD_BYTES}\n`;

/**
 * A publish the NATS client refused because it exceeds the server's announced `max_payload`
 * (nats.js throws `InvalidArgumentError: 'payload' max_payload size exceeded` before sending),
 * as the error it is: 413 E05005 naming the transport's limit, not "unreachable".
 */
export function transportRefusal(
  err: unknown,
  subject: string,
  maxPayload: number | undefined,
): AppError | undefined {
  if (!(err instanceof Error) || !/max_payload/i.test(err.message)) return undefined;
  const limit = maxPayload ? ` (${formatBytes(maxPayload)})` : '';
  return new AppError(CommonErrors.TransportPayloadTooLarge, {
    message: `The request to ${subject} is larger than the message transport's limit${limit}; nothing was done.`,
  });
}

/**
 * Reads the `max_payload` that the NATS server at `url` announces, once it can be reached, and
 * says what is wrong when it is below `requiredBytes`: the one line to log before stopping.
 * Waits for the server like the services do (a NATS that starts later is not an error).
 */
export async function checkNatsMaxPayload(
  url: string,
  requiredBytes = REQUIRED_MAX_PAYLOAD_BYTES,
): Promise<string | undefined> {
  const connection = await connect({
    servers: url.split(','),
    name: 'switchboard-max-payload-check',
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 1000,
  });
  const announced = connection.info?.max_payload ?? 0;
  await connection.close();
  if (announced >= requiredBytes) return undefined;
  return (
    `NATS at ${url} accepts messages of at most ${formatBytes(announced)} (max_payload); ` +
    `Switchboard needs ${formatBytes(requiredBytes)} for its largest bodies (20 MB emails): set "max_payload: ${NATS_MAX_PAYLOAD_BYTES}" ` +
    `in the nats-server configuration (see deploy/nats.yaml)`
  );
}

function formatBytes(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB} MB` : `${bytes} bytes`;
}
