import { CommonErrors } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { startNatsServer } from '@switchboard/testing';
import type { RunningNats } from '@switchboard/testing';
import { Controller, Module } from '@nestjs/common';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import { AppError } from '../errors/app-error';
import { RpcErrorFilter } from '../errors/rpc-error.filter';
import { rpcRequests } from '../observability/metrics';
import { requestContextOf } from '../service/rpc-context';
import { NatsServer } from './nats.server';
import { ServiceClient } from './service-client';

/** Which replica answered: each Nest app below gets its own instance of the handler. */
let replicas = 0;

@Controller()
class EchoHandler {
  private readonly replica = ++replicas;

  @MessagePattern('test.echo.send')
  echo(@Payload() payload: { text: string }, @Ctx() context: BaseRpcContext) {
    return { text: payload.text, context: requestContextOf(context), replica: this.replica };
  }

  @MessagePattern('test.echo.nothing')
  nothing(): undefined {
    return undefined;
  }

  @MessagePattern('test.echo.fail')
  fail(): never {
    throw new AppError(CommonErrors.WorkspaceNotFound, {
      message: 'no such workspace here',
      details: [{ param: 'workspace', message: 'unknown' }],
    });
  }

  @MessagePattern('test.echo.crash')
  crash(): never {
    throw new Error('secret internals');
  }

  @MessagePattern('test.echo.large')
  large(@Payload() payload: { bytes: number }) {
    return { text: 'x'.repeat(payload.bytes) };
  }

  @MessagePattern('test.echo.hang')
  hang(): Promise<never> {
    return new Promise(() => undefined);
  }
}

@Module({ controllers: [EchoHandler] })
class EchoModule {}

const context: RequestContext = {
  requestId: 'req_test',
  workspaceId: 'ws_1',
  organizationId: 'org_1',
  caller: { kind: 'api_key', id: 'key_1', role: 'write' },
  idempotencyKey: 'idem_1',
  publicOrigin: 'https://api.example.com',
};

describe(NatsServer.name, () => {
  let nats: RunningNats;
  let client: ServiceClient;
  const services: INestMicroservice[] = [];

  const startReplica = async () => {
    const service = await NestFactory.createMicroservice(EchoModule, {
      strategy: new NatsServer(nats.url, 'echo'),
      logger: false,
    });
    service.useGlobalFilters(new RpcErrorFilter());
    await service.listen();
    services.push(service);
  };

  beforeAll(async () => {
    nats = await startNatsServer();
    client = new ServiceClient({ kind: 'nats', url: nats.url, timeoutMs: 500 }, 'test');
    await startReplica();
    await startReplica();
  });

  afterAll(async () => {
    await client?.close();
    await Promise.all(services.map((service) => service.close()));
    await nats?.stop();
  });

  it('delivers the payload and the whole request context as headers, and the reply', async () => {
    const reply = await untyped(client).send<{ text: string; context: unknown }>(
      'test.echo.send',
      { text: 'hi' },
      context,
    );
    expect(reply).toMatchObject({ text: 'hi', context });
    expect(client.isConnected).toBe(true);
  });

  it('answers an empty reply as undefined', async () => {
    await expect(untyped(client).send('test.echo.nothing', {}, context)).resolves.toBeUndefined();
  });

  it('shares the requests between the replicas of a service (one queue group), each answered once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        untyped(client).send<{ text: string; replica: number }>(
          'test.echo.send',
          { text: `m${i}` },
          context,
        ),
      ),
    );
    expect(replies.map((reply) => reply.text)).toEqual(replies.map((_, i) => `m${i}`));
    expect(new Set(replies.map((reply) => reply.replica)).size).toBe(2);
  });

  it('surfaces a service AppError unchanged, details included', async () => {
    const error = (await untyped(client)
      .send('test.echo.fail', {}, context)
      .catch((err: unknown) => err)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: CommonErrors.WorkspaceNotFound,
      message: 'no such workspace here',
      details: [{ param: 'workspace', message: 'unknown' }],
    });
  });

  it("answers a reply over the transport's max_payload as 413 E05005, not as a time-out", async () => {
    // Building and encoding 33 MB takes longer than the other cases' 500 ms time-out.
    const patient = new ServiceClient({ kind: 'nats', url: nats.url, timeoutMs: 10_000 }, 'big');
    const error = (await untyped(patient)
      .send('test.echo.large', { bytes: 33 * 1024 * 1024 }, context)
      .catch((err: unknown) => err)
      .finally(() => patient.close())) as AppError;
    expect(error).toMatchObject({
      code: CommonErrors.TransportPayloadTooLarge,
      status: 413,
      message: "The reply of test.echo.large is larger than the message transport's limit.",
    });
  });

  it('turns an unexpected handler error into E09001 without its message', async () => {
    const error = (await untyped(client)
      .send('test.echo.crash', {}, context)
      .catch((err: unknown) => err)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe(CommonErrors.InternalError);
    expect(error.message).not.toContain('secret internals');
  });

  it('answers E05001 when the service does not reply within the time-out', async () => {
    await expect(untyped(client).send('test.echo.hang', {}, context)).rejects.toMatchObject({
      code: CommonErrors.ServiceTimeout,
    });
  });

  it('answers E05002 at once when no service handles the subject', async () => {
    // NATS says no one listens (a time-out while connected would be E05001).
    await expect(untyped(client).send('test.nobody.home', {}, context)).rejects.toMatchObject({
      code: CommonErrors.ServiceUnavailable,
      message: 'The service answering test.nobody.home is unreachable.',
    });
  });

  it('counts each request by subject and outcome, as the interceptor did', async () => {
    const count = async (subject: string, outcome: string) =>
      (await rpcRequests.get()).values
        .filter(
          (v) =>
            v.labels.service === 'echo' &&
            v.labels.subject === subject &&
            v.labels.outcome === outcome,
        )
        .reduce((sum, v) => sum + v.value, 0);
    const ok = await count('test.echo.send', 'ok');
    const failed = await count('test.echo.fail', 'error');
    await untyped(client).send('test.echo.send', { text: 'x' }, context);
    await untyped(client)
      .send('test.echo.fail', {}, context)
      .catch(() => undefined);
    expect(await count('test.echo.send', 'ok')).toBe(ok + 1);
    expect(await count('test.echo.fail', 'error')).toBe(failed + 1);
  });

  it('answers E05002 while NATS is down, and serves again once it is back', async () => {
    await nats.stop();
    await waitFor(() => !client.isConnected);
    await expect(
      untyped(client).send('test.echo.send', { text: 'down' }, context),
    ).rejects.toMatchObject({
      code: CommonErrors.ServiceUnavailable,
      message: 'The message transport is unreachable.',
    });
    await nats.restart();
    await waitFor(() => client.isConnected, 10_000);
    // The services resubscribe on their own reconnect, which may land a moment after the client's.
    await waitFor(
      () =>
        untyped(client)
          .send<{ text: string }>('test.echo.send', { text: 'back' }, context)
          .then(
            (reply) => reply.text === 'back',
            () => false,
          ),
      10_000,
    );
  }, 30_000);

  it('connects on the next request when NATS was not there for the first', async () => {
    const late = await startNatsServer();
    await late.stop();
    const lateClient = new ServiceClient({ kind: 'nats', url: late.url, timeoutMs: 500 }, 'late');
    try {
      await expect(
        untyped(lateClient).send('test.echo.send', { text: 'early' }, context),
      ).rejects.toMatchObject({ code: CommonErrors.ServiceUnavailable });
      await late.restart();
      // Nobody serves on this server: no responders, but over a live connection.
      await expect(
        untyped(lateClient).send('test.echo.send', { text: 'late' }, context),
      ).rejects.toMatchObject({
        code: CommonErrors.ServiceUnavailable,
        message: 'The service answering test.echo.send is unreachable.',
      });
      expect(lateClient.isConnected).toBe(true);
    } finally {
      await lateClient.close();
      await late.stop();
    }
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The spec's subjects are its own, outside the contracts' RpcMap. */
function untyped(client: ServiceClient): {
  send<T>(subject: string, payload: unknown, context: RequestContext): Promise<T>;
} {
  return client as never;
}
