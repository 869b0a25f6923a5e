import { AppError } from '../errors/app-error';
import { wireCopy } from './wire-copy';
import { CommonErrors } from '@switchboard/contracts';

export type BusHandler = (data: unknown, headers: Record<string, string>) => Promise<unknown>;

/**
 * The in-process stand-in for NATS in the embedded default: subjects map to the handlers of the
 * services booted in this process. Payloads, headers and replies are copied both ways as a trip
 * over the wire would leave them (`wireCopy`), so handlers see exactly what they would see over
 * NATS and never share a mutable object with the caller.
 */
export class InProcessBus {
  private readonly handlers = new Map<string, BusHandler>();

  register(subject: string, handler: BusHandler): void {
    if (this.handlers.has(subject)) throw new Error(`subject ${subject} already has a handler`);
    this.handlers.set(subject, handler);
  }

  unregister(subject: string): void {
    this.handlers.delete(subject);
  }

  async request(subject: string, data: unknown, headers: Record<string, string>): Promise<unknown> {
    const handler = this.handlers.get(subject);
    if (!handler)
      throw new AppError(CommonErrors.ServiceUnavailable, {
        message: `No service answers ${subject}.`,
      }).toTransport();
    const reply = await handler(wireCopy(data), { ...headers });
    return wireCopy(reply);
  }
}
