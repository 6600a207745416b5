import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  mixin,
  NestInterceptor,
  type Type,
} from '@nestjs/common';
import busboy from 'busboy';
import type { Request } from 'express';
import { mkdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { catchError, concatMap, from, Observable, switchMap } from 'rxjs';
import { ApiError } from '../common/errors/api-error';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { UploadQuotaService } from './services/upload-quota.service';
import { stageFile, type StagedFile } from './staging';

/** Product-decisions §9: 10 MB per file (10 MiB), 5 files per request. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES_PER_REQUEST = 5;

const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 64 * 1024;

export interface MultipartForm {
  files: StagedFile[];
  fields: Record<string, string>;
}

interface ParseOptions {
  field: string;
  maxFiles: number;
  stagingDir: string;
  /** Sees every received file chunk; throws to stop the upload (the daily quota). */
  onBytes: (n: number) => void;
}

/**
 * Reads a multipart form as it streams in (busboy), staging each file on disk through stageFile: no file is ever
 * held whole in memory. Form limits as before: files only in `field`, at most `maxFiles`, each at most 10 MB
 * (413 payload_too_large the moment it passes), at most 10 text fields of 64 KiB. On any refusal reading stops, the
 * files staged so far are removed and the error is thrown.
 */
export function parseMultipart(req: Request, o: ParseOptions): Promise<MultipartForm> {
  return new Promise<MultipartForm>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          fileSize: MAX_FILE_BYTES,
          // One more than allowed, so the extra file's field is known (busboy's own limit skips it unnamed).
          files: o.maxFiles + 1,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: o.maxFiles + 1 + MAX_FIELDS,
        },
      });
    } catch (err) {
      return reject(invalidForm(o.field, (err as Error).message));
    }
    const fields: Record<string, string> = {};
    const staging: Promise<StagedFile>[] = [];
    const open = new Set<Readable>();
    let failed = false;

    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      req.unpipe(bb);
      // The rest of the body is read and dropped (nothing is kept): a client that sends its whole body before
      // reading the answer still gets it, and the connection stays usable. The request timeout bounds it.
      req.resume();
      // With an error: a file stream destroyed without one leaves its pipeline waiting forever.
      for (const s of open) s.destroy(new Error('upload refused'));
      void Promise.allSettled(staging)
        .then((done) => removeStaged(done.flatMap((d) => (d.status === 'fulfilled' ? [d.value] : []))))
        .then(() => reject(err as Error));
    };
    // A file in another field is refused naming both: where files go, and the field that takes none (a text
    // field of the form, or one it does not have).
    const unexpected = (name: string): void => {
      const where = `files go only in the "${o.field}" field, at most ${o.maxFiles}`;
      const problems = [{ field: o.field, message: where }];
      if (name !== o.field) problems.push({ field: name, message: `takes no file (${where})` });
      fail(ApiError.validation(problems, `${o.field}: ${where}`));
    };

    let files = 0;
    bb.on('file', (name, stream, info) => {
      if (failed) return void stream.resume();
      if (name !== o.field || ++files > o.maxFiles) {
        stream.resume();
        return unexpected(name);
      }
      open.add(stream);
      stream.on('limit', () =>
        fail(
          new ApiError('payload_too_large', `Each file may be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`, {
            max_bytes: MAX_FILE_BYTES,
          }),
        ),
      );
      const staged = stageFile(stream, o.stagingDir, o.onBytes).then((f) => ({
        ...f,
        originalname: info.filename,
      }));
      staging.push(staged);
      staged.catch(fail).finally(() => open.delete(stream));
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(ApiError.field(name, `must be at most ${MAX_FIELD_BYTES} bytes`));
      else fields[name] = value;
    });
    bb.on('filesLimit', () => unexpected(o.field));
    bb.on('fieldsLimit', () => fail(invalidForm(o.field, 'too many fields')));
    bb.on('partsLimit', () => fail(invalidForm(o.field, 'too many parts')));
    bb.on('error', (err) => fail(invalidForm(o.field, (err as Error).message)));
    bb.on('close', () => {
      if (failed) return;
      Promise.all(staging).then((files) => (failed ? removeStaged(files) : resolve({ files, fields })), fail);
    });
    req.on('aborted', () => fail(new Error('the client aborted the upload')));
    req.pipe(bb);
  });
}

export async function removeStaged(files: StagedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}

function invalidForm(field: string, why: string): ApiError {
  return ApiError.field(field, `the multipart form is invalid (${why})`);
}

/**
 * The interceptor of an upload route, in place of multer's FileInterceptor: it takes one of the worker's upload
 * slots (429 too_many_concurrent_uploads), refuses at once when nothing is left of today's quota (429
 * upload_quota_exceeded), streams the form in (parseMultipart) and stops when the quota is passed, then hands the
 * staged files to the handler as `req.file` / `req.files` and the text fields as `req.body`. When the handler is
 * done, whatever its outcome, the staged files are removed and the slot is released, before the answer leaves:
 * a client that retries on the answer finds its slot free.
 */
export function MultipartUpload(field: string, maxFiles: number): Type<NestInterceptor> {
  @Injectable()
  class MultipartUploadInterceptor implements NestInterceptor {
    constructor(
      private readonly quota: UploadQuotaService,
      @Inject(APP_CONFIG) private readonly config: AppConfig,
    ) {}

    intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
      const req = ctx.switchToHttp().getRequest<Request>();
      let staged: StagedFile[] = [];
      let release = async (): Promise<void> => undefined;
      const done = async (): Promise<void> => {
        await removeStaged(staged);
        await release();
      };
      return from(
        (async () => {
          const workerId = req.actor!.id;
          const slot = await this.quota.slot(workerId);
          release = () => {
            release = async () => undefined;
            return slot.release();
          };
          try {
            const used = await this.quota.usedToday(workerId);
            this.quota.check(used, 0);
            await mkdir(this.config.uploads.stagingDir, { recursive: true, mode: 0o700 });
            let received = 0;
            const form = await parseMultipart(req, {
              field,
              maxFiles,
              stagingDir: this.config.uploads.stagingDir,
              onBytes: (n) => this.quota.check(used, (received += n)),
            });
            staged = form.files;
            req.body = form.fields;
            // Where @UploadedFile() and @UploadedFiles() read from.
            Object.assign(req, { files: form.files, file: form.files[0] });
          } catch (err) {
            await release();
            throw err;
          }
        })(),
      ).pipe(
        switchMap(() => next.handle()),
        concatMap(async (result: unknown) => {
          await done();
          return result;
        }),
        catchError(async (err: unknown) => {
          await done();
          throw err;
        }),
      );
    }
  }
  return mixin(MultipartUploadInterceptor);
}
