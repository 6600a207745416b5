import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { Drain } from './drain';
import { Readiness } from './readiness.service';

/** The drain state and the readiness check, shared by the API (GET /readyz) and the job runner's health listener. */
@Module({
  imports: [EventsModule],
  providers: [Drain, Readiness],
  exports: [Drain, Readiness],
})
export class ReadinessModule {}
