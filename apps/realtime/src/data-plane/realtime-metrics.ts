import { metricsRegistry } from '@switchboard/platform';
import { Counter, Gauge, Histogram } from 'prom-client';

export const realtimeConnections = new Gauge({
  name: 'switchboard_realtime_connections',
  help: 'Client connections open on this process (WebSocket and socket.io)',
  registers: [metricsRegistry],
});

export const realtimeSubscriptions = new Gauge({
  name: 'switchboard_realtime_subscriptions',
  help: 'Channel subscriptions held by this process',
  registers: [metricsRegistry],
});

export const realtimeMessages = new Counter({
  name: 'switchboard_realtime_messages_total',
  help: 'Frames received from clients (in) and sent to clients (out)',
  labelNames: ['direction'] as const,
  registers: [metricsRegistry],
});

export const realtimeDeliveryLatency = new Histogram({
  name: 'switchboard_realtime_delivery_seconds',
  help: 'Time from a publish reaching the engine to the last subscriber frame written',
  buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
  registers: [metricsRegistry],
});

export const realtimeStalledClosed = new Counter({
  name: 'switchboard_realtime_stalled_closed_total',
  help: 'Connections closed because their reader stopped reading (over the unsent-bytes limit)',
  registers: [metricsRegistry],
});
