import { CommonErrors } from '@switchboard/contracts';
import { Controller, Module } from '@nestjs/common';
import type { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { of } from 'rxjs';
import { AppError } from '../errors/app-error';
import { RpcErrorFilter } from '../errors/rpc-error.filter';
import { rpcDuration, rpcRequests } from '../observability/metrics';
import { InProcessBus } from './in-process.bus';
import { InProcessServer } from './in-process.server';

@Controller()
class CountedHandler {
  @MessagePattern('counted.item.get')
  get(@Payload() payload: { id: string }) {
    return Promise.resolve({ id: payload.id });
  }

  @MessagePattern('counted.item.stream')
  stream() {
    return of(1, 2, 3);
  }

  @MessagePattern('counted.item.fail')
  fail(): never {
    throw new AppError(CommonErrors.WorkspaceNotFound);
  }
}

@Module({ controllers: [CountedHandler] })
class CountedModule {}

async function count(subject: string, outcome: 'ok' | 'error'): Promise<number> {
  const { values } = await rpcRequests.get();
  const value = values.find(
    (v) =>
      v.labels.service === 'counted' &&
      v.labels.subject === subject &&
      v.labels.outcome === outcome,
  );
  return value?.value ?? 0;
}

async function timed(subject: string): Promise<number> {
  const { values } = await rpcDuration.get();
  const value = values.find(
    (v) =>
      v.metricName === 'switchboard_rpc_duration_seconds_count' &&
      v.labels.service === 'counted' &&
      v.labels.subject === subject,
  );
  return value?.value ?? 0;
}

describe(InProcessServer.name, () => {
  const bus = new InProcessBus();
  let service: INestMicroservice;

  beforeAll(async () => {
    service = await NestFactory.createMicroservice(CountedModule, {
      strategy: new InProcessServer(bus, 'counted'),
      logger: false,
    });
    service.useGlobalFilters(new RpcErrorFilter());
    await service.listen();
  });

  afterAll(async () => {
    await service.close();
  });

  it('answers with the value a handler resolves to, or the last value it emits', async () => {
    await expect(bus.request('counted.item.get', { id: 'x' }, {})).resolves.toEqual({ id: 'x' });
    await expect(bus.request('counted.item.stream', {}, {})).resolves.toBe(3);
  });

  it('counts and times each request by service, subject and outcome when given the service name', async () => {
    const okBefore = await count('counted.item.get', 'ok');
    const timedBefore = await timed('counted.item.get');
    await bus.request('counted.item.get', { id: 'x' }, {});
    await bus.request('counted.item.get', { id: 'y' }, {});
    expect(await count('counted.item.get', 'ok')).toBe(okBefore + 2);
    expect(await timed('counted.item.get')).toBe(timedBefore + 2);

    const errorsBefore = await count('counted.item.fail', 'error');
    await expect(bus.request('counted.item.fail', {}, {})).rejects.toMatchObject({
      code: 'E04001',
    });
    expect(await count('counted.item.fail', 'error')).toBe(errorsBefore + 1);
  });

  it('leaves the counting to the interceptor without a service name', async () => {
    const quiet = new InProcessBus();
    const uncounted = await NestFactory.createMicroservice(CountedModule, {
      strategy: new InProcessServer(quiet),
      logger: false,
    });
    await uncounted.listen();
    try {
      const before = await count('counted.item.get', 'ok');
      await quiet.request('counted.item.get', { id: 'z' }, {});
      expect(await count('counted.item.get', 'ok')).toBe(before);
    } finally {
      await uncounted.close();
    }
  });
});
