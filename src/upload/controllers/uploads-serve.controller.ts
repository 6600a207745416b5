import { Controller, Get, Param, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../auth/auth.decorators';
import { ApiError, FieldProblem } from '../../common/errors/api-error';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { DATE_PART, FILE_NAME, UPLOAD_CATEGORIES } from '../storage/file-storage';
import { FileStorage } from '../storage/file-storage';
import { UploadService } from '../services/upload.service';

/**
 * Serves uploaded files. Public like the links in task results and events: a file's URL carries 144 random bits,
 * so knowing it is the permission (a capability URL, as object stores' signed links). Path parts are checked
 * strictly before any lookup (no traversal, no odd names): a bad one is 400 validation_error; a well-formed
 * unknown one is 404. Only files recorded in the uploads table are served, with the type detected at upload.
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
      'Public: the unguessable URL is the permission. Answers the bytes as uploaded, EXIF included.',
  })
  @ApiOkResponse({ description: 'The bytes, as uploaded (EXIF kept).' })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  async serve(
    @Param('category') category: string,
    @Param('date') date: string,
    @Param('filename') filename: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
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
    const file = record ? await this.storage.open(key) : null;
    if (!record || !file) throw new ApiError('not_found', 'No such file.');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // Never let a served file run as a page of this origin (a PDF viewer or an HTML-sniffing client).
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'private, max-age=86400, immutable');
    return new StreamableFile(file.stream, {
      type: record.content_type,
      length: file.size,
      disposition:
        record.content_type === 'application/pdf' ? `attachment; filename="${filename}"` : 'inline',
    });
  }
}
