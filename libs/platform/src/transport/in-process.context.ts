import { BaseRpcContext } from '@nestjs/microservices';

/** Handler context of the in-process transport: the subject and the request headers. */
export class InProcessContext extends BaseRpcContext<[string, Record<string, string>]> {
  getSubject(): string {
    return this.args[0];
  }

  getHeaders(): Record<string, string> {
    return this.args[1];
  }
}

/** What a client sends through the in-process transport: the payload and its headers. */
export class InProcessRecord {
  constructor(
    readonly data: unknown,
    readonly headers: Record<string, string>,
  ) {}
}
