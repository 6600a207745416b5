import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import type {
  NotificationSettingsResponse,
  UpdateNotificationSettingsRequest,
} from '../dtos/notification-settings.dto';
import { PushSubscriptionsService } from './push-subscriptions.service';

/** How a worker wants to be reached about offers: SMS on or off, and what the app needs to subscribe to Web Push. */
@Injectable()
export class NotificationSettingsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: PushSubscriptionsService,
    private readonly clock: Clock,
  ) {}

  async get(actor: WorkerActor): Promise<NotificationSettingsResponse> {
    const [row] = await sqlRows<{ offer_sms_enabled: boolean }>(
      this.ds,
      `SELECT offer_sms_enabled FROM workers WHERE id = $1`,
      [actor.id],
    );
    return this.view(row.offer_sms_enabled, actor.id);
  }

  async update(
    actor: WorkerActor,
    dto: UpdateNotificationSettingsRequest,
  ): Promise<NotificationSettingsResponse> {
    const [row] = await sqlRows<{ offer_sms_enabled: boolean }>(
      this.ds,
      `UPDATE workers SET offer_sms_enabled = $2, updated_at = $3 WHERE id = $1 RETURNING offer_sms_enabled`,
      [actor.id, dto.offer_sms, this.clock.now()],
    );
    return this.view(row.offer_sms_enabled, actor.id);
  }

  private async view(offerSms: boolean, workerId: string): Promise<NotificationSettingsResponse> {
    return {
      offer_sms: offerSms,
      push: {
        vapid_public_key: this.config.webPush.publicKey,
        devices: await this.subscriptions.count(workerId),
      },
    };
  }
}
