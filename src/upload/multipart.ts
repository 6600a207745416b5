import { CallHandler, ExecutionContext, HttpException, Injectable, NestInterceptor } from '@nestjs/common';
import type { FileInterceptor } from '@nestjs/platform-express';
import { catchError, Observable, throwError } from 'rxjs';
import { ApiError } from '../common/errors/api-error';

/** Product-decisions §9: 10 MB per file (10 MiB), 5 files per request. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES_PER_REQUEST = 5;

type MulterOptions = NonNullable<Parameters<typeof FileInterceptor>[1]>;

/**
 * Multer options for a route, with tight limits on every part of the form. No `storage` and no `dest`: multer then
 * keeps files in memory (its MemoryStorage), so a file is checked before anything is written and reaches
 * FileStorage only once accepted. No MulterModule is registered, so no global `dest` can change that.
 */
export function multipartOptions(files: number): MulterOptions {
  return {
    limits: { fileSize: MAX_FILE_BYTES, files, fields: 10, fieldSize: 64 * 1024, parts: files + 10 },
  };
}

/**
 * Turns multer's exceptions (raised by FileInterceptor/FilesInterceptor, bound after this interceptor) into the
 * error envelope: an over-size file is 413 payload_too_large; a malformed form, an unexpected file field or too
 * many files is 400 validation_error naming the field. Errors of the handler itself (ApiError) pass unchanged.
 */
export function MultipartErrors(field: string): new () => NestInterceptor {
  @Injectable()
  class MultipartErrorsInterceptor implements NestInterceptor {
    intercept(_ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
      return next.handle().pipe(catchError((err: unknown) => throwError(() => translate(err, field))));
    }
  }
  return MultipartErrorsInterceptor;
}

function translate(err: unknown, field: string): unknown {
  if (!(err instanceof HttpException)) return err;
  const status: number = err.getStatus();
  if (status === 413) {
    return new ApiError('payload_too_large', `Each file may be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`, {
      max_bytes: MAX_FILE_BYTES,
    });
  }
  if (status === 400) {
    const message = /too many files|unexpected/i.test(err.message)
      ? `unexpected file: send files only in the "${field}" field, at most ${field === 'files' ? MAX_FILES_PER_REQUEST : 1}`
      : `the multipart form is invalid (${err.message})`;
    return ApiError.field(field, message);
  }
  return err;
}
