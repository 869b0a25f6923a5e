import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { DynamicModule, FactoryProvider } from '@nestjs/common';
import { Handles } from './handles';
import { CommonErrors, healthSubject } from '@switchboard/contracts';
import type { ServiceName } from '@switchboard/contracts';
import { AppError } from '../errors/app-error';

/** A dependency a service needs to answer requests (its database, its transport). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

interface ReplyLike {
  status(code: number): ReplyLike;
  send(body: unknown): void;
}

async function runReadinessChecks(
  checks: ReadinessCheck[],
): Promise<Record<string, 'ok' | 'failing'>> {
  const results: Record<string, 'ok' | 'failing'> = {};
  await Promise.all(
    checks.map(async (readiness) => {
      results[readiness.name] = await readiness.check().then(
        () => 'ok' as const,
        () => 'failing' as const,
      );
    }),
  );
  return results;
}

/**
 * Health of one service: `/healthz` and `/readyz` over HTTP when the service runs as its own
 * process, and a `<service>.health.check` subject the gateway's readiness probe calls. Metrics are
 * not here: every process serves them on its own METRICS_PORT (observability/metrics-server.ts).
 */
export class ServiceHealthModule {
  static forService(
    service: ServiceName,
    readiness: Omit<FactoryProvider<ReadinessCheck[]>, 'provide'>,
  ): DynamicModule {
    @Controller()
    class ServiceHealthController {
      constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

      @Get('healthz')
      @HttpCode(200)
      healthz(): { status: string } {
        return { status: 'ok' };
      }

      @Get('readyz')
      async readyz(@Res() reply: ReplyLike): Promise<void> {
        const checks = await runReadinessChecks(this.checks);
        const ready = Object.values(checks).every((state) => state === 'ok');
        reply
          .status(ready ? 200 : 503)
          .send({ status: ready ? 'ok' : 'unavailable', service, checks });
      }

      @Handles(healthSubject(service))
      async check(): Promise<{ service: string; status: string }> {
        const checks = await runReadinessChecks(this.checks.filter((c) => c.name !== 'transport'));
        if (Object.values(checks).some((state) => state === 'failing')) {
          throw new AppError(CommonErrors.ServiceUnavailable, {
            message: `The ${service} service cannot reach its database.`,
          });
        }
        return { service, status: 'ok' };
      }
    }
    return {
      module: ServiceHealthModule,
      controllers: [ServiceHealthController],
      providers: [{ provide: READINESS_CHECKS, ...readiness }],
    };
  }
}
