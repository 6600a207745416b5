import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { JobsModule } from '../jobs/jobs.module';
import { SmsModule } from '../sms/sms.module';
import { NotificationSettingsController } from './controllers/notification-settings.controller';
import { PushSubscriptionsController } from './controllers/push-subscriptions.controller';
import { WorkerNotificationsController } from './controllers/worker-notifications.controller';
import { MoneyLadder } from './services/money-ladder';
import { MoneyPush } from './services/money-push';
import { MoneySms } from './services/money-sms';
import { NotificationSettingsService } from './services/notification-settings.service';
import { OfferLadder } from './services/offer-ladder';
import { OfferPush } from './services/offer-push';
import { OfferSms } from './services/offer-sms';
import { PushSubscriptionsService } from './services/push-subscriptions.service';
import { WebPushSender } from './services/web-push-sender';
import { WorkerNotificationsService } from './services/worker-notifications.service';

/**
 * How offers reach workers whose app is closed (product-decisions §16): Web Push subscriptions and sending, offer SMS,
 * the worker's settings, and the ladder that queues both when an offer is made; and the same ladder for the worker's
 * money events (§19: paid, rejected, a dispute decided), with the worker's notifications list. Loaded by the API and by the job
 * runner process (jobs.main.ts), since the ladder reacts where events are published and its jobs run there.
 */
@Module({
  imports: [EventsModule, JobsModule, SmsModule],
  controllers: [PushSubscriptionsController, NotificationSettingsController, WorkerNotificationsController],
  providers: [
    PushSubscriptionsService,
    NotificationSettingsService,
    WebPushSender,
    OfferPush,
    OfferSms,
    OfferLadder,
    MoneyPush,
    MoneySms,
    MoneyLadder,
    WorkerNotificationsService,
  ],
  exports: [OfferSms],
})
export class NotificationsModule {}
