import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MatchingModule } from '../matching/matching.module';
import { EventsModule } from '../events/events.module';
import { PaymentModule } from '../payment/payment.module';
import { TaskModule } from '../task/task.module';
import { JobRunner } from './job-runner';
import { OnCallOffers } from './on-call-offers';

/** Background work on pg-boss: the scheduled sweeps (JobRunner) and the offers to workers going on call. */
@Module({
  imports: [TaskModule, MatchingModule, IdempotencyModule, PaymentModule, EventsModule],
  providers: [JobRunner, OnCallOffers],
  exports: [JobRunner],
})
export class JobsModule {}
