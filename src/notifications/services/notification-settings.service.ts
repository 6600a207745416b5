import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import type {
  NotificationSettingsResponse,
  UpdateNotificationSettingsRequest,
} from '../dtos/notification-settings.dto';
import { PushSubscriptionsService } from './push-subscriptions.service';

interface SmsSwitches {
  offer_sms_enabled: boolean;
  money_sms_enabled: boolean;
}

/** How a worker wants to be reached about offers and money: SMS on or off, and what the app needs to subscribe to Web Push. */
@Injectable()
export class NotificationSettingsService {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: PushSubscriptionsService,
    private readonly clock: Clock,
  ) {}

  async get(actor: WorkerActor): Promise<NotificationSettingsResponse> {
    const [row] = await sqlRows<SmsSwitches>(
      this.ds,
      `SELECT offer_sms_enabled, money_sms_enabled FROM workers WHERE id = $1`,
      [actor.id],
    );
    return this.view(row, actor.id);
  }

  async update(
    actor: WorkerActor,
    dto: UpdateNotificationSettingsRequest,
  ): Promise<NotificationSettingsResponse> {
    if (dto.offer_sms === undefined && dto.money_sms === undefined)
      throw ApiError.field('offer_sms', 'give offer_sms, money_sms or both');
    const [row] = await sqlRows<SmsSwitches>(
      this.ds,
      `UPDATE workers SET offer_sms_enabled = COALESCE($2, offer_sms_enabled),
              money_sms_enabled = COALESCE($3, money_sms_enabled), updated_at = $4
        WHERE id = $1 RETURNING offer_sms_enabled, money_sms_enabled`,
      [actor.id, dto.offer_sms ?? null, dto.money_sms ?? null, this.clock.now()],
    );
    return this.view(row, actor.id);
  }

  private async view(row: SmsSwitches, workerId: string): Promise<NotificationSettingsResponse> {
    return {
      offer_sms: row.offer_sms_enabled,
      money_sms: row.money_sms_enabled,
      push: {
        vapid_public_key: this.config.webPush.publicKey,
        devices: await this.subscriptions.count(workerId),
      },
    };
  }
}
