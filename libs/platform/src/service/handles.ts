import { MessagePattern } from '@nestjs/microservices';
import type { ReplyOf, RequestOf, Subject } from '@switchboard/contracts';

type HandlerMethod = (...args: never[]) => unknown;

/**
 * What `@Handles` accepts for a method: its payload parameter must take the subject's request (a
 * handler may ignore the payload) and what it returns must be the subject's reply. Otherwise the
 * descriptor type asks for a property no method has, and `tsc` names the mismatch.
 */
type CheckedHandler<S extends Subject, M extends HandlerMethod> = [RequestOf<S>] extends [
  Parameters<M> extends [] ? RequestOf<S> : Parameters<M>[0],
]
  ? [Awaited<ReturnType<M>>] extends [ReplyOf<S>]
    ? TypedPropertyDescriptor<M>
    : { 'the reply does not match the contract of': S; expected: ReplyOf<S> }
  : { 'the payload does not match the contract of': S; expected: RequestOf<S> };

/**
 * Marks a transport handler of `subject`, typed by the subject's entry in `RpcMap`:
 * `@Handles(EmailSubjects.SendMessage) send(@Payload() input: EmailSendRequest, ...)`.
 */
export function Handles<S extends Subject>(subject: S) {
  return <M extends HandlerMethod>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M> & CheckedHandler<S, M>,
  ): void => {
    MessagePattern(subject)(target, key, descriptor);
  };
}
