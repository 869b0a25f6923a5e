import { ClientNats, NatsRecordBuilder } from '@nestjs/microservices';
import { contextToHeaders, isTransportError } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { AppError } from '../errors/app-error';
import { InProcessClient } from './in-process.client';
import { InProcessRecord } from './in-process.context';
import { natsClientOptions } from './transport.options';
import type { TransportSettings } from './transport.options';

/**
 * Sends a request to the service that owns a subject and returns its reply, whichever transport
 * connects them. Failures come back as AppError: the service's own error unchanged, E05001 when
 * no answer arrives within the time-out, E05002 when the transport cannot be reached.
 */
export class ServiceClient {
  private readonly proxy: ClientNats | InProcessClient;
  private connected = true;

  constructor(
    private readonly settings: TransportSettings,
    name: string,
  ) {
    if (settings.kind === 'nats') {
      const nats = new ClientNats(natsClientOptions(settings.url, name));
      this.proxy = nats;
      this.connected = false;
      // NatsStatus is a `declare const enum` with no runtime value (swc cannot inline it), so the
      // status is compared as the string it is.
      nats.status.subscribe((status: string) => {
        this.connected = status === 'connected';
      });
    } else {
      this.proxy = new InProcessClient(settings.bus);
    }
  }

  get isConnected(): boolean {
    return this.connected;
  }

  async send<T>(subject: string, payload: unknown, context: RequestContext): Promise<T> {
    const headers = contextToHeaders(context);
    try {
      const reply$ = this.proxy
        .send<T>(subject, this.record(payload, headers))
        .pipe(timeout(this.settings.timeoutMs));
      return await lastValueFrom(reply$);
    } catch (err) {
      throw this.toAppError(err, subject);
    }
  }

  async close(): Promise<void> {
    await this.proxy.close();
  }

  private record(payload: unknown, headers: Record<string, string>): unknown {
    if (this.settings.kind === 'in-process') return new InProcessRecord(payload, headers);
    const natsHeaderSet = natsHeaders();
    for (const [name, value] of Object.entries(headers)) natsHeaderSet.set(name, value);
    return new NatsRecordBuilder(payload).setHeaders(natsHeaderSet).build();
  }

  private toAppError(err: unknown, subject: string): AppError {
    if (err instanceof AppError) return err;
    if (isTransportError(err)) return AppError.fromTransport(err);
    if (err instanceof TimeoutError) {
      return this.connected
        ? new AppError('E05001', {
            message: `The service answering ${subject} did not reply in time.`,
          })
        : new AppError('E05002', { message: 'The message transport is unreachable.' });
    }
    return new AppError('E05002', { message: `The service answering ${subject} is unreachable.` });
  }
}
