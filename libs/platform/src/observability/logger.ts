import type { LoggerService } from '@nestjs/common';
import pino from 'pino';
import type { Logger } from 'pino';

/** Paths that must never reach a log, whatever object is logged. */
const REDACTED = [
  'password',
  'secret',
  'token',
  'authorization',
  '*.password',
  '*.secret',
  '*.token',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'headers.authorization',
  'headers.cookie',
];

/**
 * Log lines about a request carry its `request_id` field explicitly (the error filters add it).
 * No AsyncLocalStorage scope: on Node 20 it makes every promise of every request costlier.
 */
export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    redact: { paths: REDACTED, censor: '[redacted]' },
  });
}

/** Lets Nest's own Logger write through pino, so framework lines are structured too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.write('error', message, context ?? trace);
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace',
    message: unknown,
    context?: string,
  ): void {
    if (typeof message === 'object' && message !== null) {
      const { msg, ...fields } = message as Record<string, unknown>;
      this.logger[level]({ context, ...fields }, typeof msg === 'string' ? msg : undefined);
    } else {
      this.logger[level]({ context }, String(message));
    }
  }
}
