import { metricsRegistry } from '@switchboard/platform';
import { Counter, Gauge } from 'prom-client';

/** Whether each carrier's bind is up, for an alert on a carrier away (1 bound, 0 not). */
export const smppBound = new Gauge({
  name: 'switchboard_smpp_bound',
  help: 'Whether the SMPP bind of a carrier is up (1) or not (0), on this process',
  labelNames: ['carrier'] as const,
  registers: [metricsRegistry],
});

/** Binds the carrier refused, by its command_status: a wrong password shows here, not only in logs. */
export const smppBindRefusals = new Counter({
  name: 'switchboard_smpp_bind_refusals_total',
  help: 'bind_transceiver answers other than ESME_ROK, by carrier and command_status name',
  labelNames: ['carrier', 'status'] as const,
  registers: [metricsRegistry],
});
