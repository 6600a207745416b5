import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { EventsModule } from '../events/events.module';
import { PaymentModule } from '../payment/payment.module';
import { TaskModule } from '../task/task.module';
import { JobRunner } from './job-runner';

/** Scheduled background work on pg-boss (see JobRunner). */
@Module({
  imports: [TaskModule, IdempotencyModule, PaymentModule, EventsModule],
  providers: [JobRunner],
  exports: [JobRunner],
})
export class JobsModule {}
