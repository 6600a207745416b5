import { Global, Module } from '@nestjs/common';
import { IdempotencyKeys } from './idempotency-keys';
import { IdempotencyStore } from './idempotency.store';
import { InstanceLease } from './instance-lease';

/**
 * Idempotency keys: the Idempotency-Key header for every agent write, by IdempotencyInterceptor on every write route
 * (put there by interceptWrites; same stack in tests), and IdempotencyKeys for services whose requests carry a key
 * of their own (task creation's body key, an operator credit's key). Global, because the interceptor is built in
 * the module of each controller it guards and needs IdempotencyKeys there.
 */
@Global()
@Module({
  providers: [InstanceLease, IdempotencyStore, IdempotencyKeys],
  exports: [IdempotencyStore, IdempotencyKeys],
})
export class IdempotencyModule {}
