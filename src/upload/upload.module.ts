import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { UploadController } from './controllers/upload.controller';
import { UploadsServeController } from './controllers/uploads-serve.controller';
import { FileStorage } from './storage/file-storage';
import { LocalDiskStorage } from './storage/local-disk.storage';
import { UploadService } from './services/upload.service';

/**
 * Proof files: upload (workers), checks by content, EXIF reading, storage behind FileStorage (local disk under
 * UPLOAD_DIR; an S3-compatible store is another FileStorage chosen here) and serving at /uploads/....
 */
@Module({
  controllers: [UploadController, UploadsServeController],
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => new LocalDiskStorage(c.uploadDir),
    },
    UploadService,
  ],
  exports: [UploadService],
})
export class UploadModule {}
