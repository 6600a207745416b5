import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';
import { InstanceLease } from './instance-lease';

/** The Idempotency-Key header for every agent write, as a global interceptor (same stack in tests). */
@Module({
  providers: [
    InstanceLease,
    IdempotencyStore,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
