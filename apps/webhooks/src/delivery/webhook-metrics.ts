import { metricsRegistry } from '@switchboard/platform';
import { Counter, Histogram } from 'prom-client';

export const webhookEventsReceived = new Counter({
  name: 'switchboard_webhook_events_received_total',
  help: 'Events the webhooks service took off the bus (each id counted once)',
  registers: [metricsRegistry],
});

export const webhookAttempts = new Counter({
  name: 'switchboard_webhook_attempts_total',
  help: 'Delivery attempts, by outcome (delivered, failed, given_up)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const webhookPostponed = new Counter({
  name: 'switchboard_webhook_postponed_total',
  help: "Deliveries put back in the queue without an attempt, by reason: the receiver's Retry-After (retry_after), or its window's queue full at the pace of its attempts (backlog)",
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const webhookAttemptDuration = new Histogram({
  name: 'switchboard_webhook_attempt_duration_seconds',
  help: "Time from the request to the receiver's answer (or the failure)",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  registers: [metricsRegistry],
});

export const webhookDeliveryLag = new Histogram({
  name: 'switchboard_webhook_delivery_lag_seconds',
  help: 'Time from the event to its successful delivery, retries included',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 300, 3600, 86400],
  registers: [metricsRegistry],
});
