import { Logger } from '@nestjs/common';
import { NatsContext, Server } from '@nestjs/microservices';
import type { CustomTransportStrategy, MessageHandler } from '@nestjs/microservices';
import { connect } from '@nats-io/transport-node';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { CommonErrors, isTransportError } from '@switchboard/contracts';
import { AppError } from '../errors/app-error';
import { rpcSeries } from '../service/rpc-series';
import { decodeRequest, encodeFailure, encodeReply } from './nats-wire';
import { NatsWriteBatch } from './nats-write-batch';
import { dispatch, observed } from './rpc-dispatch';
import { natsConnectionOptions } from './transport.options';

/**
 * Serves a service's @MessagePattern handlers on NATS, one subscription per subject in the
 * service's queue group (replicas share the requests). Each request runs Nest's handler (guards,
 * pipes, filters) with a NatsContext carrying the request's headers, is counted and timed in its
 * subject's `rpcSeries`, and is answered in the wire format of `nats-wire.ts`.
 *
 * Nest's ServerNats does the same through rxjs observables, packet ids and its record serializer
 * on every request; this one calls the handler and answers the message.
 */
export class NatsServer extends Server implements CustomTransportStrategy {
  private readonly log = new Logger('NatsServer');
  private readonly writes = new NatsWriteBatch();
  private connection?: NatsConnection;

  constructor(
    private readonly url: string,
    private readonly service: string,
  ) {
    super();
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      const connection = await connect(natsConnectionOptions(this.url, this.service, 'service'));
      this.connection = connection;
      void this.watch(connection);
      for (const [subject, handler] of this.messageHandlers) this.serve(subject, handler);
      callback();
    } catch (err) {
      callback(err);
    }
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    await connection?.close();
  }

  on(): void {
    // Connection events are logged by `watch`; nothing else subscribes to them.
  }

  unwrap<T>(): T {
    if (!this.connection) throw new Error('the NATS server is not listening');
    return this.connection as T;
  }

  private serve(subject: string, handler: MessageHandler): void {
    const series = rpcSeries(this.service, subject);
    (this.connection as NatsConnection).subscribe(subject, {
      queue: this.service,
      callback: (err, msg) => {
        if (err) return this.log.error({ err, subject }, 'NATS subscription failed');
        let data: unknown;
        try {
          data = decodeRequest(msg);
        } catch {
          return this.answer(msg, encodeFailure(malformed(subject)));
        }
        observed(series, () =>
          dispatch(handler, data, new NatsContext([msg.subject, msg.headers])),
        ).then(
          (reply) => this.answer(msg, encodeReply(reply)),
          (failure: unknown) => this.answer(msg, encodeFailure(this.transportError(failure))),
        );
      },
    });
  }

  private answer(msg: Msg, body: string): void {
    if (!msg.reply) return;
    this.writes.add(() => {
      try {
        msg.respond(body);
      } catch (err) {
        this.log.error({ err, subject: msg.subject }, 'could not answer a NATS request');
        // A reply over max_payload is answered as what it is, not left for the caller's time-out.
        if (/max_payload/i.test(String((err as Error)?.message))) {
          const tooLarge = new AppError(CommonErrors.TransportPayloadTooLarge, {
            message: `The reply of ${msg.subject} is larger than the message transport's limit.`,
          });
          msg.respond(encodeFailure(tooLarge.toTransport()));
        }
      }
    });
  }

  /** RpcErrorFilter turns every handler failure into a TransportError; anything else is E09001. */
  private transportError(failure: unknown): unknown {
    if (isTransportError(failure)) return failure;
    this.log.error({ err: failure }, 'unhandled error in message handler');
    return new AppError(CommonErrors.InternalError).toTransport();
  }

  private async watch(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') this.log.error(`NATS connection lost (${status.server})`);
      else if (status.type === 'reconnect') this.log.log(`NATS reconnected (${status.server})`);
      else if (status.type === 'error') this.log.error({ err: status.error }, 'NATS error');
    }
  }
}

function malformed(subject: string): unknown {
  return new AppError(CommonErrors.InternalError, {
    message: `The request on ${subject} was not valid JSON.`,
  }).toTransport();
}
