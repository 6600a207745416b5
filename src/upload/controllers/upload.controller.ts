import { Controller, HttpCode, Post, UploadedFile, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, FilesInterceptor } from '@nestjs/platform-express';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { MultipleUploadResponse, UploadResponse } from '../dtos/upload.dto';
import { MAX_FILES_PER_REQUEST, multipartOptions, MultipartErrors } from '../multipart';
import { IncomingFile, UploadService } from '../services/upload.service';

const FILE_RULES = 'JPG, PNG, PDF, MP4 or MOV (by content), at most 10 MB each';

/** Workers upload proof files for their submissions (agents have nothing to prove, so they have no upload route). */
@ApiTags('uploads')
@Auth({ actors: ['worker'] })
@Controller(['v1/upload', 'api/v1/upload'])
@ApiBadRequestResponse({
  type: ErrorEnvelope,
  description: 'validation_error (no file, wrong field); invalid_photo (a damaged JPEG/PNG)',
})
@ApiPayloadTooLargeResponse({ type: ErrorEnvelope, description: 'payload_too_large (a file over 10 MB)' })
@ApiUnsupportedMediaTypeResponse({
  type: ErrorEnvelope,
  description: 'unsupported_media_type (content is not an accepted type)',
})
export class UploadController {
  constructor(private readonly uploads: UploadService) {}

  @Post('task-proof')
  @HttpCode(201)
  @UseInterceptors(MultipartErrors('file'), FileInterceptor('file', multipartOptions(1)))
  @ApiOperation({
    summary: `Upload one proof file (${FILE_RULES}); EXIF GPS and capture time are read and kept`,
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
  @UseInterceptors(
    MultipartErrors('files'),
    FilesInterceptor('files', MAX_FILES_PER_REQUEST, multipartOptions(MAX_FILES_PER_REQUEST)),
  )
  @ApiOperation({
    summary: `Upload 1 to ${MAX_FILES_PER_REQUEST} proof files (${FILE_RULES}); all are stored or none`,
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
