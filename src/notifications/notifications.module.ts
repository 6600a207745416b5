import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { JobsModule } from '../jobs/jobs.module';
import { SmsModule } from '../sms/sms.module';
import { NotificationSettingsController } from './controllers/notification-settings.controller';
import { PushSubscriptionsController } from './controllers/push-subscriptions.controller';
import { NotificationSettingsService } from './services/notification-settings.service';
import { OfferLadder } from './services/offer-ladder';
import { OfferPush } from './services/offer-push';
import { OfferSms } from './services/offer-sms';
import { PushSubscriptionsService } from './services/push-subscriptions.service';
import { WebPushSender } from './services/web-push-sender';

/**
 * How offers reach workers whose app is closed (product-decisions §16): Web Push subscriptions and sending, offer SMS,
 * the worker's settings, and the ladder that queues both when an offer is made. Loaded by the API and by the job
 * runner process (jobs.main.ts), since the ladder reacts where events are published and its jobs run there.
 */
@Module({
  imports: [EventsModule, JobsModule, SmsModule],
  controllers: [PushSubscriptionsController, NotificationSettingsController],
  providers: [
    PushSubscriptionsService,
    NotificationSettingsService,
    WebPushSender,
    OfferPush,
    OfferSms,
    OfferLadder,
  ],
  exports: [OfferSms],
})
export class NotificationsModule {}
