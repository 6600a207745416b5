import { Controller, HttpCode, Post, UploadedFile, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { MultipleUploadResponse, UploadResponse } from '../dtos/upload.dto';
import { MAX_FILES_PER_REQUEST, MultipartUpload } from '../multipart';
import { IncomingFile, UploadService } from '../services/upload.service';

const FILE_RULES = 'JPG, PNG, PDF, MP4 or MOV (by content), at most 10 MB each';

/** Workers upload proof files for their submissions (agents have nothing to prove, so they have no upload route). */
@ApiTags('uploads')
@Auth({ actors: ['worker'] })
@Controller(['v1/upload', 'api/v1/upload'])
@ApiErrors({
  400: ['validation_error', 'invalid_photo'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  429: ['too_many_concurrent_uploads', 'upload_quota_exceeded'],
})
export class UploadController {
  constructor(private readonly uploads: UploadService) {}

  @Post('task-proof')
  @HttpCode(201)
  @UseInterceptors(MultipartUpload('file', 1))
  @ApiOperation({
    summary: `Upload one proof file (${FILE_RULES}); EXIF GPS and capture time are read and kept`,
    description:
      'For workers: stores one proof file checked by its content, not its name, and reads EXIF GPS and capture time for the location check. Answers the file URL to cite in a submission.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({ type: UploadResponse })
  async single(
    @CurrentActor() actor: WorkerActor,
    @UploadedFile() file: IncomingFile | undefined,
  ): Promise<UploadResponse> {
    const [one] = await this.uploads.upload(actor, file ? [file] : [], 'file');
    return one;
  }

  @Post('task-proofs-multiple')
  @HttpCode(201)
  @UseInterceptors(MultipartUpload('files', MAX_FILES_PER_REQUEST))
  @ApiOperation({
    summary: `Upload 1 to ${MAX_FILES_PER_REQUEST} proof files (${FILE_RULES}); all are stored or none`,
    description:
      'For workers: 1 to 5 files in the `files` field, each checked like a single upload; any refusal stores none of them.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['files'],
      properties: {
        files: {
          type: 'array',
          maxItems: MAX_FILES_PER_REQUEST,
          items: { type: 'string', format: 'binary' },
        },
      },
    },
  })
  @ApiCreatedResponse({ type: MultipleUploadResponse })
  async multiple(
    @CurrentActor() actor: WorkerActor,
    @UploadedFiles() files: IncomingFile[] | undefined,
  ): Promise<MultipleUploadResponse> {
    return { files: await this.uploads.upload(actor, files ?? [], 'files') };
  }
}
