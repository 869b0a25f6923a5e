import { Catch, Logger, NotFoundException } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import { throwError } from 'rxjs';
import type { Observable } from 'rxjs';
import { AppError } from './app-error';
import type { BaseRpcContext } from '@nestjs/microservices';
import { requestContextOf, subjectOf } from '../service/rpc-context';
import { CommonErrors } from '@switchboard/contracts';

/** Sends every handler failure across the transport as the envelope's code, message and details. */
@Catch()
export class RpcErrorFilter implements ExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> | void {
    if (host.getType() === 'http') return this.replyOverHttp(exception, host);
    if (exception instanceof AppError) return throwError(() => exception.toTransport());
    const rpc = host.switchToRpc().getContext<BaseRpcContext>();
    this.logger.error(
      { err: exception, subject: subjectOf(rpc), request_id: requestContextOf(rpc).requestId },
      'unhandled error in message handler',
    );
    return throwError(() => new AppError(CommonErrors.InternalError).toTransport());
  }

  /**
   * A service's own HTTP routes are only /healthz and /readyz: answer their failures plainly. Any
   * other path (an old scrape of /metrics, a typo) is a 404, not an error to log.
   */
  private replyOverHttp(exception: unknown, host: ArgumentsHost): void {
    const error =
      exception instanceof AppError
        ? exception
        : exception instanceof NotFoundException
          ? new AppError(CommonErrors.RouteNotFound)
          : new AppError(CommonErrors.InternalError);
    if (error.code === CommonErrors.InternalError && !(exception instanceof AppError))
      this.logger.error({ err: exception }, 'unhandled error in HTTP route');
    const reply = host
      .switchToHttp()
      .getResponse<{ status(code: number): { send(body: unknown): void } }>();
    reply.status(error.status).send({ error: error.toTransport() });
  }
}
