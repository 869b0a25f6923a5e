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
