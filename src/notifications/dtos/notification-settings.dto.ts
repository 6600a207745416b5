import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { OFFER_SMS_DAILY_CAP, OFFER_SMS_DELAY_SECONDS } from '../offer-sms-policy';

export class UpdateNotificationSettingsRequest {
  @ApiProperty({
    description: `false: no offer ever comes by SMS. true (the default): an offer still unanswered ${OFFER_SMS_DELAY_SECONDS} s after it was made comes by SMS too.`,
  })
  @IsBoolean()
  offer_sms: boolean;
}

export class PushSettingsView {
  @ApiProperty({
    description:
      "The VAPID public key (base64url) to pass as applicationServerKey to the browser's pushManager.subscribe.",
  })
  vapid_public_key: string;

  @ApiProperty({
    type: 'integer',
    description: 'How many of your devices are subscribed to offers by Web Push.',
  })
  devices: number;
}

export class NotificationSettingsResponse {
  @ApiProperty({
    description:
      `Whether offers unanswered after ${OFFER_SMS_DELAY_SECONDS} s come by SMS (at most ${OFFER_SMS_DAILY_CAP} a day, ` +
      'never from 22:00 to 08:00 China time).',
  })
  offer_sms: boolean;

  @ApiProperty({ type: PushSettingsView })
  push: PushSettingsView;
}
