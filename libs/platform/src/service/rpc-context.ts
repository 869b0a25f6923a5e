import type { BaseRpcContext } from '@nestjs/microservices';
import { NatsContext } from '@nestjs/microservices';
import { CommonErrors, contextFromHeaders } from '@switchboard/contracts';
import type { RequestContext } from '@switchboard/contracts';
import { InProcessContext } from '../transport/in-process.context';
import { AppError } from '../errors/app-error';

/** Reads the caller, workspace and request id a request carried, whichever transport brought it. */
export function requestContextOf(context: BaseRpcContext): RequestContext {
  if (context instanceof InProcessContext) {
    const headers = context.getHeaders();
    return contextFromHeaders((name) => headers[name]);
  }
  if (context instanceof NatsContext) {
    const headers = context.getHeaders() as { get(name: string): string } | undefined;
    return contextFromHeaders((name) => headers?.get(name) || undefined);
  }
  return contextFromHeaders(() => undefined);
}

export function subjectOf(context: BaseRpcContext): string {
  if (context instanceof InProcessContext || context instanceof NatsContext)
    return context.getSubject();
  return 'unknown';
}

/** The workspace a request acts in; a request that reached a service without one is E04001. */
export function workspaceOf(context: RequestContext): string {
  if (!context.workspaceId) throw new AppError(CommonErrors.WorkspaceNotFound);
  return context.workspaceId;
}
