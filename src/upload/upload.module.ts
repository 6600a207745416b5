import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { Logger } from '../common/logging/logger';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { UploadController } from './controllers/upload.controller';
import { UploadsServeController } from './controllers/uploads-serve.controller';
import { MemoryUploadSlots, RedisUploadSlots, type UploadSlots } from './quota/upload-slots';
import { UPLOAD_SLOTS, UploadQuotaService } from './services/upload-quota.service';
import { UploadService } from './services/upload.service';
import { FileStorage } from './storage/file-storage';
import { LocalDiskStorage } from './storage/local-disk.storage';

/**
 * Proof files: upload (workers), streamed and checked by content, EXIF reading, per-worker quotas, storage behind
 * FileStorage (local disk under UPLOAD_DIR, or an S3-compatible bucket with STORAGE=s3) and serving at /uploads/....
 */
@Module({
  controllers: [UploadController, UploadsServeController],
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig): FileStorage => {
        if (c.storage.driver !== 's3') return new LocalDiskStorage(c.uploadDir);
        // Loaded only for a bucket: the AWS SDK is about 9 MiB of resident memory in a process that never uses it.
        // require, not import(): jest runs the e2e suite as CommonJS without VM modules (stats-export.service.ts).
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { S3Storage } = require('./storage/s3.storage') as typeof import('./storage/s3.storage');
        return new S3Storage(c.storage);
      },
    },
    {
      provide: UPLOAD_SLOTS,
      inject: [APP_CONFIG, Logger],
      useFactory: (c: AppConfig, logger: Logger): UploadSlots =>
        c.redisUrl
          ? new RedisUploadSlots(
              new Redis(c.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }),
              c.redisKeyPrefix,
              (err) => logger.warn({ err }, 'upload slots: Redis unavailable, counting in memory'),
            )
          : new MemoryUploadSlots(),
    },
    UploadQuotaService,
    UploadService,
  ],
  // UploadQuotaService: the upload interceptor (multipart.ts) of the task module's photo submission needs it.
  exports: [UploadService, UploadQuotaService, FileStorage],
})
export class UploadModule implements OnApplicationShutdown {
  constructor(
    private readonly storage: FileStorage,
    @Inject(UPLOAD_SLOTS) private readonly slots: UploadSlots,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.slots.close();
    await this.storage.close();
  }
}
