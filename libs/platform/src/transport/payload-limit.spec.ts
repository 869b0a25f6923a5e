import { CommonErrors } from '@switchboard/contracts';
import { startNatsServer } from '@switchboard/testing';
import type { RunningNats } from '@switchboard/testing';
import { AppError } from '../errors/app-error';
import {
  checkNatsMaxPayload,
  NATS_MAX_PAYLOAD_BYTES,
  REQUIRED_MAX_PAYLOAD_BYTES,
} from './payload-limit';
import { ServiceClient } from './service-client';

/** nats-server's own default, what an unconfigured server announces. */
const NATS_DEFAULT_MAX_PAYLOAD = 1024 * 1024;

describe('NATS max_payload', () => {
  let configured: RunningNats;
  let unconfigured: RunningNats;
  const context = {
    requestId: 'req_test',
    workspaceId: 'ws_1',
    caller: { kind: 'api_key' as const, id: 'key_1', role: 'write' as const },
  };

  beforeAll(async () => {
    [configured, unconfigured] = await Promise.all([
      startNatsServer(),
      startNatsServer({ maxPayload: NATS_DEFAULT_MAX_PAYLOAD }),
    ]);
  });

  afterAll(async () => {
    await configured?.stop();
    await unconfigured?.stop();
  });

  it('is configured above what a 20 MB email needs and below the server cap of 64 MB', () => {
    expect(NATS_MAX_PAYLOAD_BYTES).toBeGreaterThanOrEqual(REQUIRED_MAX_PAYLOAD_BYTES);
    expect(NATS_MAX_PAYLOAD_BYTES).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it('passes the check on a server configured as the deployments configure it', async () => {
    await expect(checkNatsMaxPayload(configured.url)).resolves.toBeUndefined();
  });

  it("names the server's limit, what is needed and the setting when the server announces less", async () => {
    await expect(checkNatsMaxPayload(unconfigured.url)).resolves.toBe(
      `NATS at ${unconfigured.url} accepts messages of at most 1 MB (max_payload); Switchboard needs 21 MB for its largest bodies (20 MB emails): set "max_payload: ${NATS_MAX_PAYLOAD_BYTES}" in the nats-server configuration (see deploy/nats.yaml)`,
    );
  });

  it("answers a request the transport refuses as too large with 413 E05005 naming the limit, not as 'unreachable'", async () => {
    const client = new ServiceClient({ kind: 'nats', url: unconfigured.url, timeoutMs: 2000 }, 't');
    try {
      const error = await client
        .send('docs.page.get' as never, { text: 'x'.repeat(2 * 1024 * 1024) } as never, context)
        .catch((err: unknown) => err);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: CommonErrors.TransportPayloadTooLarge,
        status: 413,
        message:
          "The request to docs.page.get is larger than the message transport's limit (1 MB); nothing was done.",
      });
    } finally {
      await client.close();
    }
  });

  it('carries a 20 MB request across a server configured as the deployments configure it', async () => {
    // Writing 20 MB to the socket can take more than a second on a loaded machine: the time-out
    // leaves room for it, so the answer is NATS's "no responders", not our own time-out.
    const client = new ServiceClient({ kind: 'nats', url: configured.url, timeoutMs: 15_000 }, 't');
    try {
      // No service answers: the request is sent and NATS says nobody serves it (no responders),
      // where a 1 MB server refuses it before sending.
      const error = await client
        .send(
          'test.nobody.listens' as never,
          { text: 'x'.repeat(20 * 1024 * 1024) } as never,
          context,
        )
        .catch((err: unknown) => err);
      expect(error).toMatchObject({ code: CommonErrors.ServiceUnavailable });
    } finally {
      await client.close();
    }
  });
});
