import type { HealthSubject } from './rpc-map';
import type { ServiceName } from './services';

/** Readiness probe every service answers: its database and handlers are up. */
export function healthSubject<S extends ServiceName>(service: S): `${S}.health.check` {
  return `${service}.health.check`;
}

export type { HealthSubject };
