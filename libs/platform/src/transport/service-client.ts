import { ClientNats, NatsRecordBuilder } from '@nestjs/microservices';
import { CommonErrors, contextToHeaders, isTransportError } from '@switchboard/contracts';
import type { ReplyOf, RequestContext, RequestOf, Subject } from '@switchboard/contracts';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { AppError } from '../errors/app-error';
import type { InProcessBus } from './in-process.bus';
import { transportRefusal } from './payload-limit';
import { natsClientOptions } from './transport.options';
import type { TransportSettings } from './transport.options';

/**
 * Sends a request to the service that owns a subject and returns its reply, whichever transport
 * connects them. Failures come back as AppError: the service's own error unchanged, E05001 when
 * no answer arrives within the time-out, E05002 when the transport cannot be reached.
 *
 * In the embedded default the request goes straight onto the in-process bus (a promise and a
 * timer); Nest's ClientProxy would wrap each one in several rxjs observables for nothing.
 */
export class ServiceClient {
  private readonly nats?: ClientNats;
  private readonly bus?: InProcessBus;
  private connected = true;

  constructor(
    private readonly settings: TransportSettings,
    name: string,
  ) {
    if (settings.kind === 'nats') {
      const nats = new ClientNats(natsClientOptions(settings.url, name));
      this.nats = nats;
      this.connected = false;
      // NatsStatus is a `declare const enum` with no runtime value (swc cannot inline it), so the
      // status is compared as the string it is.
      nats.status.subscribe((status: string) => {
        this.connected = status === 'connected';
      });
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
      : this.sendOverNats<ReplyOf<S>>(
          this.nats as ClientNats,
          subject,
          payload,
          headers,
          timeoutMs,
        );
  }

  async close(): Promise<void> {
    await this.nats?.close();
  }

  private sendInProcess<T>(
    bus: InProcessBus,
    subject: string,
    payload: unknown,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(this.toAppError(new TimeoutError(), subject)),
        timeoutMs,
      );
      bus.request(subject, payload, headers).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply as T);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(this.toAppError(err, subject));
        },
      );
    });
  }

  private async sendOverNats<T>(
    nats: ClientNats,
    subject: string,
    payload: unknown,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<T> {
    const natsHeaderSet = natsHeaders();
    for (const [name, value] of Object.entries(headers)) natsHeaderSet.set(name, value);
    const record = new NatsRecordBuilder(payload).setHeaders(natsHeaderSet).build();
    try {
      return await lastValueFrom(nats.send<T>(subject, record).pipe(timeout(timeoutMs)));
    } catch (err) {
      throw this.toAppError(err, subject);
    }
  }

  /** The `max_payload` the NATS server announced to this client, for the 413 it explains. */
  private announcedMaxPayload(): number | undefined {
    const client = this.nats as unknown as { natsClient?: { info?: { max_payload?: number } } };
    return client?.natsClient?.info?.max_payload;
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
