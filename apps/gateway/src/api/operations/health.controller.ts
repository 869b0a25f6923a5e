import { Controller, Get, Inject, Res } from '@nestjs/common';
import { healthSubject, ServiceNames } from '@switchboard/contracts';
import { ServiceClient } from '@switchboard/platform';
import type { ReadinessCheck } from '@switchboard/platform';
import type { FastifyReply } from 'fastify';
import { IdentityRepository } from '../../identity/identity.repository';
import { Route } from '../../pipeline/routes/route-policy';
import { PLATFORM_READINESS, SERVICE_CLIENT } from '../../pipeline/service-client.provider';

const probe = {
  tag: 'Operations',
  auth: 'none',
  rateLimit: 'none',
} as const;

/**
 * Liveness and readiness (own database plus every service over the transport). Metrics are not on
 * the public API port: every process serves them on its METRICS_PORT.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly identity: IdentityRepository,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(PLATFORM_READINESS) private readonly others: ReadinessCheck[],
  ) {}

  @Get('healthz')
  @Route({
    ...probe,
    summary: 'Liveness: the process is up',
    response: { status: 200, description: 'Up' },
  })
  healthz() {
    return { status: 'ok' };
  }

  @Get('readyz')
  @Route({
    ...probe,
    summary: 'Readiness: the database and every service are reachable',
    response: { status: 200, description: 'Ready (503 otherwise)' },
  })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply) {
    const checks: Record<string, 'ok' | 'failing'> = {};
    const context = { requestId: 'req_readiness', caller: { kind: 'anonymous' as const } };
    await Promise.all([
      this.identity.ping().then(
        () => (checks.database = 'ok'),
        () => (checks.database = 'failing'),
      ),
      ...ServiceNames.map((service) =>
        this.services.send(healthSubject(service), {}, context).then(
          () => (checks[service] = 'ok'),
          () => (checks[service] = 'failing'),
        ),
      ),
      ...this.others.map((other) =>
        other.check().then(
          () => (checks[other.name] = 'ok'),
          () => (checks[other.name] = 'failing'),
        ),
      ),
    ]);
    const ready = Object.values(checks).every((state) => state === 'ok');
    void reply.status(ready ? 200 : 503).header('cache-control', 'no-store');
    return { status: ready ? 'ok' : 'unavailable', checks };
  }
}
