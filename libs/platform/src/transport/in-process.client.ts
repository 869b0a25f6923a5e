import { ClientProxy } from '@nestjs/microservices';
import type { ReadPacket, WritePacket } from '@nestjs/microservices';
import type { InProcessBus } from './in-process.bus';
import { InProcessRecord } from './in-process.context';

/** The client side of the in-process transport, behind Nest's ClientProxy interface. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly bus: InProcessBus) {
    super();
  }

  async connect(): Promise<void> {
    // Nothing to connect: the bus lives in this process.
  }

  close(): void {
    // Nothing to release.
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const record =
      packet.data instanceof InProcessRecord ? packet.data : new InProcessRecord(packet.data, {});
    this.bus.request(String(packet.pattern), record.data, record.headers).then(
      (response) => callback({ response, isDisposed: true }),
      (err: unknown) => callback({ err, isDisposed: true }),
    );
    return () => undefined;
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const record =
      packet.data instanceof InProcessRecord ? packet.data : new InProcessRecord(packet.data, {});
    return (await this.bus.request(String(packet.pattern), record.data, record.headers)) as T;
  }
}
