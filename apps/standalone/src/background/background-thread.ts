import { parentPort, workerData } from 'node:worker_threads';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  createLogger,
  foregroundPriority,
  loadConfig,
  metricsRegistry,
  PinoNestLogger,
  processEventBus,
} from '@switchboard/platform';
import { productServices } from '../services';
import type { BackgroundData, FromBackground, ToBackground } from './background-protocol';

/**
 * The embedded default's background thread (ADR 11): the background part of every service that
 * has one (work queues, outbox relays, the event bus's consumers, housekeeping), each in an
 * application context of its own with its own database pool, no transport bound. Its in-process
 * event bus is this thread's: the relays that publish and the consumers that subscribe all run
 * here. Started and supervised by BackgroundThread in the request thread.
 */
async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('background-thread.js runs as a worker thread of the platform');
  const data = workerData as BackgroundData;
  const post = (message: FromBackground) => port.postMessage(message);
  const logger = createLogger('switchboard', data.logLevel).child({ thread: 'background' });
  // Consumers of the event bus first, and they stop last (reverse order). Services that both
  // consume and publish (email, sms-whatsapp, verify-lookup-preferences) leave no order that puts
  // every consumer first, so the bus holds every publish until all have started, and refuses
  // publishes once stopping begins: the relays keep what they could not hand over.
  const services = productServices
    .filter((service) => service.background)
    .sort((a, b) => Number(b.background?.consumesEvents) - Number(a.background?.consumesEvents));
  const contexts: INestApplicationContext[] = [];
  processEventBus.hold();
  const starting = (async () => {
    for (const service of services) {
      const config = loadConfig(service.schema, data.env);
      contexts.push(
        await NestFactory.createApplicationContext(service.module(config, 'background'), {
          logger: new PinoNestLogger(logger),
          // A failure is reported to the request thread, not an abort of the whole process.
          abortOnError: false,
        }),
      );
    }
  })();
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= starting
      .catch(() => undefined)
      .then(async () => {
        processEventBus.close();
        for (const context of contexts.reverse()) await context.close();
      }));
  port.on('message', (message: ToBackground) => {
    if (message.kind === 'share') foregroundPriority.follow(message.share);
    else if (message.kind === 'metrics')
      void metricsRegistry
        .getMetricsAsJSON()
        .then((metrics) => post({ kind: 'metrics', id: message.id, metrics }));
    else
      stop().then(
        () => {
          post({ kind: 'stopped' });
          port.close();
        },
        (err: unknown) => {
          logger.error({ err }, 'background thread: error while stopping');
          port.close();
        },
      );
  });
  try {
    await starting;
    processEventBus.release();
  } catch (err) {
    post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    await stop().catch(() => undefined);
    port.close();
    return;
  }
  post({ kind: 'ready', services: services.map((service) => service.name) });
}

void main();
