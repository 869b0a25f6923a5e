import { Catch, Logger } from '@nestjs/common';
import type { ArgumentsHost, RpcExceptionFilter } from '@nestjs/common';
import { throwError } from 'rxjs';
import type { Observable } from 'rxjs';
import { AppError } from './app-error';

/** Sends every handler failure across the transport as the envelope's code, message and details. */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (exception instanceof AppError) return throwError(() => exception.toTransport());
    const pattern = host.switchToRpc().getContext<{ getSubject?: () => string }>()?.getSubject?.();
    this.logger.error({ err: exception, subject: pattern }, 'unhandled error in message handler');
    return throwError(() => new AppError('E09001').toTransport());
  }
}
