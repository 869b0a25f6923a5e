import { Logger } from '@nestjs/common';
import { CommonErrors, contextToHeaders, isTransportError } from '@switchboard/contracts';
import type { ReplyOf, RequestContext, RequestOf, Subject } from '@switchboard/contracts';
import { connect, errors as natsErrors } from '@nats-io/transport-node';
import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { TimeoutError } from 'rxjs';
import { AppError } from '../errors/app-error';
import type { InProcessBus } from './in-process.bus';
import { DeadlineQueue } from './deadline-queue';
import { decodeReply, encodeRequest, toNatsHeaders } from './nats-wire';
import { NatsWriteBatch } from './nats-write-batch';
import { transportRefusal } from './payload-limit';
import { natsConnectionOptions } from './transport.options';
import type { TransportSettings } from './transport.options';

/**
 * Sends a request to the service that owns a subject and returns its reply, whichever transport
 * connects them. Failures come back as AppError: the service's own error unchanged, E05001 when
 * no answer arrives within the time-out, E05002 when the transport cannot be reached.
 *
 * In the embedded default the request goes straight onto the in-process bus (a promise and an
 * entry in a deadline queue); Nest's ClientProxy would wrap each one in several rxjs observables for nothing. Over
 * NATS it is one `request` on a connection of our own (replies on one muxed inbox subscription,
 * the wire format of `nats-wire.ts`, answered by NatsServer); Nest's ClientNats also subscribed
 * and unsubscribed an inbox per request. The connection is made on the first request, and again
 * on the next one when it fails; once made, it reconnects by itself.
 */
export class ServiceClient {
  private readonly bus?: InProcessBus;
  private readonly url?: string;
  private readonly log = new Logger(ServiceClient.name);
  private readonly writes = new NatsWriteBatch();
  /** The in-process requests' time-outs, one queue per duration. */
  private readonly deadlines = new Map<number, DeadlineQueue>();
  private nats?: NatsConnection;
  private connecting?: Promise<NatsConnection>;
  private connected = true;
  private closed = false;

  constructor(
    private readonly settings: TransportSettings,
    private readonly name: string,
  ) {
    if (settings.kind === 'nats') {
      this.url = settings.url;
      this.connected = false;
    } else {
      this.bus = settings.bus;
    }
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * Sends a request and resolves to the service's reply, both typed by the subject's entry in
   * `RpcMap` (libs/contracts). `timeoutMs` lengthens the transport's
   * time-out for a call that is slow by design (a webhook test waits up to 10 s for a receiver);
   * it never shortens a longer configured one.
   */
  send<S extends Subject>(
    subject: S,
    payload: RequestOf<S>,
    context: RequestContext,
    options: { timeoutMs?: number } = {},
  ): Promise<ReplyOf<S>> {
    const headers = contextToHeaders(context);
    const timeoutMs = Math.max(options.timeoutMs ?? 0, this.settings.timeoutMs);
    return this.bus
      ? this.sendInProcess<ReplyOf<S>>(this.bus, subject, payload, headers, timeoutMs)
      : this.sendOverNats<ReplyOf<S>>(subject, payload, headers, timeoutMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.nats ?? (await this.connecting?.catch(() => undefined));
    this.nats = undefined;
    this.connecting = undefined;
    this.connected = false;
    await connection?.close();
  }

  private sendInProcess<T>(
    bus: InProcessBus,
    subject: string,
    payload: unknown,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<T> {
    let deadlines = this.deadlines.get(timeoutMs);
    if (!deadlines) this.deadlines.set(timeoutMs, (deadlines = new DeadlineQueue(timeoutMs)));
    const queue = deadlines;
    return new Promise<T>((resolve, reject) => {
      const answered = queue.add(() => reject(this.toAppError(new TimeoutError(), subject)));
      bus.request(subject, payload, headers).then(
        (reply) => {
          answered();
          resolve(reply as T);
        },
        (err: unknown) => {
          answered();
          reject(this.toAppError(err, subject));
        },
      );
    });
  }

  private async sendOverNats<T>(
    subject: string,
    payload: unknown,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<T> {
    let reply;
    try {
      const nats = this.nats ?? (await this.connect());
      const data = encodeRequest(payload);
      const options = { timeout: timeoutMs, headers: toNatsHeaders(headers) };
      const msg = await new Promise<Msg>((resolve, reject) => {
        this.writes.add(() => {
          nats.request(subject, data, options).then(resolve, reject);
        });
      });
      reply = decodeReply(msg);
    } catch (err) {
      // NATS has a time-out of its own; toAppError knows rxjs's, which the in-process path uses.
      throw this.toAppError(
        err instanceof natsErrors.TimeoutError ? new TimeoutError() : err,
        subject,
      );
    }
    if ('e' in reply) throw this.toAppError(reply.e, subject);
    return reply.r as T;
  }

  private connect(): Promise<NatsConnection> {
    if (this.closed) return Promise.reject(new Error('the service client is closed'));
    this.connecting ??= connect(
      natsConnectionOptions(this.url as string, this.name, 'client'),
    ).then(
      (nats) => {
        this.nats = nats;
        this.connected = true;
        void this.watch(nats);
        return nats;
      },
      (err: unknown) => {
        this.connecting = undefined;
        throw err;
      },
    );
    return this.connecting;
  }

  /** Follows the connection's state; once it is closed, the next request connects again. */
  private async watch(nats: NatsConnection): Promise<void> {
    for await (const status of nats.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.log.error(`NATS connection lost (${status.server}); reconnecting`);
      } else if (status.type === 'reconnect') {
        this.connected = true;
        this.log.log(`NATS reconnected (${status.server})`);
      }
    }
    if (this.nats === nats) {
      this.nats = undefined;
      this.connecting = undefined;
      this.connected = false;
    }
  }

  /** The `max_payload` the NATS server announced to this client, for the 413 it explains. */
  private announcedMaxPayload(): number | undefined {
    return this.nats?.info?.max_payload;
  }

  private toAppError(err: unknown, subject: string): AppError {
    if (err instanceof AppError) return err;
    if (isTransportError(err)) return AppError.fromTransport(err);
    const refused = transportRefusal(err, subject, this.announcedMaxPayload());
    if (refused) return refused;
    if (err instanceof TimeoutError) {
      return this.connected
        ? new AppError(CommonErrors.ServiceTimeout, {
            message: `The service answering ${subject} did not reply in time.`,
          })
        : new AppError(CommonErrors.ServiceUnavailable, {
            message: 'The message transport is unreachable.',
          });
    }
    return new AppError(CommonErrors.ServiceUnavailable, {
      message: `The service answering ${subject} is unreachable.`,
    });
  }
}
