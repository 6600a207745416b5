import { Controller, Get, Param, Res } from '@nestjs/common';
import { pipeline } from 'node:stream/promises';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../auth/auth.decorators';
import { ApiError, FieldProblem } from '../../common/errors/api-error';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { DATE_PART, FILE_NAME, UPLOAD_CATEGORIES } from '../storage/file-storage';
import { FileStorage } from '../storage/file-storage';
import { presentation, UploadService } from '../services/upload.service';

/**
 * Serves uploaded files. Public like the links in task results and events: a file's URL carries 144 random bits,
 * so knowing it is the permission (a capability URL, as object stores' signed links). Path parts are checked
 * strictly before any lookup (no traversal, no odd names): a bad one is 400 validation_error; a well-formed
 * unknown one is 404. Only files recorded in the uploads table are served, with the type detected at upload.
 *
 * With object storage (STORAGE=s3) the answer is a 302 to a presigned URL of the bucket valid for a few minutes:
 * the same URL grants the same access as before (it is checked here first), the bytes come from the store, and the
 * URLs kept in results and events never expire because they name this route, not the bucket.
 */
@ApiTags('uploads')
@Public()
@Controller('uploads')
export class UploadsServeController {
  constructor(
    private readonly uploads: UploadService,
    private readonly storage: FileStorage,
  ) {}

  @Get(':category/:date/:filename')
  @ApiOperation({
    summary: 'An uploaded file (its URL is the permission)',
    description:
      'Public: the unguessable URL is the permission. Answers the bytes as uploaded, EXIF included, or, with ' +
      'object storage, a redirect to a short-lived signed URL of the file.',
  })
  @ApiOkResponse({ description: 'The bytes, as uploaded (EXIF kept), when files are on this server’s disk.' })
  @ApiResponse({
    status: 302,
    description:
      'With object storage: Location is a presigned URL of the file, valid for S3_SIGNED_URL_TTL_SECONDS.',
  })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  async serve(
    @Param('category') category: string,
    @Param('date') date: string,
    @Param('filename') filename: string,
    @Res() res: Response,
  ): Promise<void> {
    const problems: FieldProblem[] = [];
    if (!(UPLOAD_CATEGORIES as readonly string[]).includes(category)) {
      problems.push({ field: 'category', message: `must be one of ${UPLOAD_CATEGORIES.join(', ')}` });
    }
    if (!DATE_PART.test(date)) problems.push({ field: 'date', message: 'must be YYYY-MM-DD' });
    if (!FILE_NAME.test(filename))
      problems.push({ field: 'filename', message: 'is not an upload file name' });
    if (problems.length) throw ApiError.validation(problems);
    const key = `${category}/${date}/${filename}`;
    const record = await this.uploads.findByKey(key);
    if (!record) throw new ApiError('not_found', 'No such file.');
    const signed = await this.uploads.signedUrl(record);
    if (signed) {
      // The signed URL expires: the redirect must not outlive it in a cache.
      res.setHeader('Cache-Control', 'no-store');
      return res.redirect(302, signed);
    }
    const file = await this.storage.open(key);
    if (!file) throw new ApiError('not_found', 'No such file.');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Never let a served file run as a page of this origin (a PDF viewer or an HTML-sniffing client).
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'private, max-age=86400, immutable');
    const { contentType, disposition } = presentation(record);
    res.status(200);
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', String(file.size));
    res.setHeader('Content-Disposition', disposition);
    // Once bytes flow an error can only cut the connection; pipeline then closes both ends.
    await pipeline(file.stream, res).catch(() => undefined);
  }
}
