import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Logger } from '../logging/logger';
import { isDatabaseUnavailable, isRejectedInput } from './database-errors';
import { ApiError, ErrorCode } from './api-error';

const STATUS_TO_CODE: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: 'validation_error',
  [HttpStatus.UNAUTHORIZED]: 'authentication_required',
  [HttpStatus.FORBIDDEN]: 'forbidden',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.METHOD_NOT_ALLOWED]: 'method_not_allowed',
  [HttpStatus.CONFLICT]: 'conflict',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'payload_too_large',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limit_exceeded',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'service_unavailable',
};

/**
 * Renders every error in the one envelope `{error: {code, message, details?, ...}}`. Unexpected errors are logged
 * with the request id and answered as 500 internal_error without any internals. A lost database connection is 503
 * service_unavailable with Retry-After (see isDatabaseUnavailable): the client should retry, with its
 * Idempotency-Key.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(@Inject(Logger) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') return;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const error = this.toApiError(exception, req);
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
    res.status(error.status).json(renderError(error));
  }

  private toApiError(exception: unknown, req: Request): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = STATUS_TO_CODE[status];
      if (code) {
        const message = status === 404 ? `No route for ${req.method} ${req.path}.` : exception.message;
        return new ApiError(code, message);
      }
    }
    const err = exception as { type?: string; status?: number };
    if (err?.type === 'entity.too.large')
      return new ApiError('payload_too_large', 'The request body is too large.');
    if (isRejectedInput(exception)) {
      // A value the database cannot take (not a uuid, a NUL byte) got past validation: still the client's error,
      // but a route is missing a check (logged so it gets one).
      this.logger.warn(
        { err: exception, request_id: req.id, path: req.path },
        'unvalidated input reached SQL',
      );
      return new ApiError('validation_error', 'A value in the request is not valid.', { details: [] });
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ err: exception, request_id: req.id, path: req.path }, 'database unavailable');
      return new ApiError(
        'service_unavailable',
        'The database is unavailable for a moment; retry shortly.',
        { retry_after: 1, request_id: req.id },
        { 'Retry-After': '1' },
      );
    }
    this.logger.error(
      { err: exception, request_id: req.id, method: req.method, path: req.path },
      'unhandled error',
    );
    return new ApiError(
      'internal_error',
      'An unexpected error occurred. Quote the request_id when reporting it.',
      {
        request_id: req.id,
      },
    );
  }
}

export function renderError(error: ApiError): { error: Record<string, unknown> } {
  return { error: { code: error.code, message: error.message, ...error.extra } };
}
