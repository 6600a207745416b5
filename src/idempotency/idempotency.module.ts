import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyKeys } from './idempotency-keys';
import { IdempotencyStore } from './idempotency.store';
import { InstanceLease } from './instance-lease';

/**
 * Idempotency keys: the Idempotency-Key header for every agent write, as a global interceptor (same stack in tests),
 * and IdempotencyKeys for services whose requests carry a key of their own (task creation's body key, an operator
 * credit's key).
 */
@Module({
  providers: [
    InstanceLease,
    IdempotencyStore,
    IdempotencyKeys,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotencyStore, IdempotencyKeys],
})
export class IdempotencyModule {}
