import { LoggerService } from '@nestjs/common';
import pino from 'pino';

/**
 * Structured JSON logs (pino). Injected as a class so services log with context objects; also serves as Nest's own
 * logger so framework messages come out in the same format.
 */
export class Logger implements LoggerService {
  readonly pino: pino.Logger;

  /**
   * `fields`: added to every line (while tracing is on, the active trace_id and span_id; see
   * observability/tracing.ts). Without it a line carries only what its caller gives (the access line its request_id).
   */
  constructor(
    level: pino.LevelWithSilent = 'info',
    destination?: pino.DestinationStream,
    fields?: (() => object) | null,
  ) {
    this.pino = pino(
      {
        level,
        base: { service: 'legwork' },
        timestamp: pino.stdTimeFunctions.isoTime,
        ...(fields ? { mixin: fields } : {}),
      },
      destination ?? pino.destination({ sync: false }),
    );
  }

  info(obj: object | string, msg?: string): void {
    this.write('info', obj, msg);
  }
  warn(obj: object | string, msg?: string): void {
    this.write('warn', obj, msg);
  }
  error(obj: object | string, msg?: string): void {
    this.write('error', obj, msg);
  }
  debug(obj: object | string, msg?: string): void {
    this.write('debug', obj, msg);
  }

  // LoggerService (framework messages): (message, context) or (message, stack, context)
  log(message: unknown, ...rest: unknown[]): void {
    this.pino.info({ context: rest[rest.length - 1] }, String(message));
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.pino.trace({ context: rest[rest.length - 1] }, String(message));
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.pino.fatal({ context: rest[rest.length - 1] }, String(message));
  }

  flush(): void {
    this.pino.flush();
  }

  private write(level: 'info' | 'warn' | 'error' | 'debug', obj: object | string, msg?: string): void {
    if (typeof obj === 'string') this.pino[level](obj);
    else this.pino[level](obj, msg);
  }
}
