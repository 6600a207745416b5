import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Logger } from '../logging/logger';
import {
  MemoryRateLimitStore,
  RATE_LIMIT_STORE,
  RedisRateLimitStore,
  type RateLimitStore,
} from './rate-limit.store';

/** Counters live in Redis when REDIS_URL is set (shared by every instance), otherwise in this process. */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORE,
      inject: [APP_CONFIG, Logger],
      useFactory: (config: AppConfig, logger: Logger): RateLimitStore =>
        config.redisUrl
          ? new RedisRateLimitStore(
              new Redis(config.redisUrl, {
                maxRetriesPerRequest: 1,
                enableOfflineQueue: false,
                lazyConnect: false,
              }),
              (err) => logger.warn({ err }, 'rate limit store: Redis unavailable, counting in memory'),
            )
          : new MemoryRateLimitStore(),
    },
  ],
  exports: [RATE_LIMIT_STORE],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
