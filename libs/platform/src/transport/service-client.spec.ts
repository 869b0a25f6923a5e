import { CommonErrors } from '@switchboard/contracts';
import { Controller, Module } from '@nestjs/common';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import type { BaseRpcContext } from '@nestjs/microservices';
import type { RequestContext } from '@switchboard/contracts';
import { AppError } from '../errors/app-error';
import { RpcErrorFilter } from '../errors/rpc-error.filter';
import { requestContextOf } from '../service/rpc-context';
import { InProcessBus } from './in-process.bus';
import { InProcessServer } from './in-process.server';
import { ServiceClient } from './service-client';

@Controller()
class EchoHandler {
  @MessagePattern('test.echo.send')
  echo(@Payload() payload: { text: string }, @Ctx() context: BaseRpcContext) {
    return { text: payload.text, context: requestContextOf(context) };
  }

  @MessagePattern('test.echo.fail')
  fail(): never {
    throw new AppError(CommonErrors.WorkspaceNotFound, { message: 'no such workspace here' });
  }

  @MessagePattern('test.echo.crash')
  crash(): never {
    throw new Error('secret internals');
  }

  @MessagePattern('test.echo.hang')
  hang(): Promise<never> {
    return new Promise(() => undefined);
  }
}

@Module({ controllers: [EchoHandler] })
class EchoModule {}

describe(ServiceClient.name, () => {
  const bus = new InProcessBus();
  const client = new ServiceClient({ kind: 'in-process', bus, timeoutMs: 200 }, 'test');
  const context = {
    requestId: 'req_test',
    workspaceId: 'ws_1',
    caller: { kind: 'api_key' as const, id: 'key_1', role: 'write' as const },
  };
  let service: INestMicroservice;

  beforeAll(async () => {
    service = await NestFactory.createMicroservice(EchoModule, {
      strategy: new InProcessServer(bus),
      logger: false,
    });
    service.useGlobalFilters(new RpcErrorFilter());
    await service.listen();
  });

  afterAll(async () => {
    await service.close();
  });

  it('delivers the payload and the request context as headers', async () => {
    const reply = await untyped(client).send<{ text: string; context: unknown }>(
      'test.echo.send',
      { text: 'hi' },
      context,
    );
    expect(reply).toEqual({
      text: 'hi',
      context: { requestId: 'req_test', workspaceId: 'ws_1', caller: context.caller },
    });
  });

  it('surfaces a service AppError unchanged', async () => {
    await expect(untyped(client).send('test.echo.fail', {}, context)).rejects.toMatchObject({
      code: 'E04001',
      message: 'no such workspace here',
    });
  });

  it('turns an unexpected handler error into E09001 without its message', async () => {
    const error = (await untyped(client)
      .send('test.echo.crash', {}, context)
      .catch((err: unknown) => err)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('E09001');
    expect(error.message).not.toContain('secret internals');
  });

  it('answers E05001 when the service does not reply within the time-out', async () => {
    await expect(untyped(client).send('test.echo.hang', {}, context)).rejects.toMatchObject({
      code: 'E05001',
    });
  });

  it('answers E05002 when no service handles the subject', async () => {
    await expect(untyped(client).send('test.nobody.home', {}, context)).rejects.toMatchObject({
      code: 'E05002',
    });
  });
});

/** The spec's subjects are its own, outside the contracts' RpcMap. */
function untyped(client: ServiceClient): {
  send<T>(subject: string, payload: unknown, context: RequestContext): Promise<T>;
} {
  return client as never;
}
