import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { OFFER_SMS_DAILY_CAP, OFFER_SMS_DELAY_SECONDS } from '../offer-sms-policy';

/** Each field absent leaves its setting as it is; at least one is given. */
export class UpdateNotificationSettingsRequest {
  @ApiPropertyOptional({
    description: `false: no offer ever comes by SMS. true (the default): an offer still unanswered ${OFFER_SMS_DELAY_SECONDS} s after it was made comes by SMS too.`,
  })
  @IsOptional()
  @IsBoolean()
  offer_sms?: boolean;

  @ApiPropertyOptional({
    description:
      'true: news of your money (paid, rejected, a dispute decided) also comes by SMS when you have not read it in the app 30 s later, never from 22:00 to 08:00 China time (one due then waits until 08:00). false (the default): the app and Web Push only.',
  })
  @IsOptional()
  @IsBoolean()
  money_sms?: boolean;
}

export class PushSettingsView {
  @ApiProperty({
    description:
      "The VAPID public key (base64url) to pass as applicationServerKey to the browser's pushManager.subscribe.",
  })
  vapid_public_key: string;

  @ApiProperty({
    type: 'integer',
    description: 'How many of your devices are subscribed by Web Push (offers and news of your money).',
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

  @ApiProperty({
    description:
      'Whether news of your money comes by SMS too (off unless you turn it on; never in the quiet hours, at most 10 a day).',
  })
  money_sms: boolean;

  @ApiProperty({ type: PushSettingsView })
  push: PushSettingsView;
}
