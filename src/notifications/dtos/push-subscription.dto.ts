import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

export const PUSH_LOCALES = ['zh-CN', 'en'] as const;
export type PushLocale = (typeof PUSH_LOCALES)[number];

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export class PushSubscriptionKeys {
  @ApiProperty({
    description: "The browser's P-256 public key (65 bytes, uncompressed point), base64url.",
    example: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  })
  @IsString()
  @MaxLength(100)
  @Matches(BASE64URL, { message: 'p256dh must be base64url' })
  p256dh: string;

  @ApiProperty({
    description: 'The 16-byte authentication secret, base64url.',
    example: 'tBHItJI5svbpez7KI4CCXg',
  })
  @IsString()
  @MaxLength(40)
  @Matches(BASE64URL, { message: 'auth must be base64url' })
  auth: string;
}

/**
 * A browser's PushSubscription as `JSON.stringify(subscription)` writes it (the Push API's own field names), plus
 * the language the notification should speak.
 */
export class RegisterPushSubscriptionRequest {
  @ApiProperty({
    maxLength: 2048,
    description:
      "The push service URL the browser was given (FCM for Chrome, Mozilla's for Firefox, Apple's for Safari). " +
      'Live mode: https only, and it must resolve to public addresses (the SSRF rules of webhook URLs).',
    example: 'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3AycjUf4O-byuxBQ',
  })
  @IsString()
  @MaxLength(2048)
  endpoint: string;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'When the subscription ends, in milliseconds since the epoch; null or absent: no end.',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(8.64e15, { message: 'expirationTime must be a time JavaScript can represent' })
  expirationTime?: number | null;

  @ApiProperty({ type: PushSubscriptionKeys })
  @IsObject()
  @ValidateNested()
  @Type(() => PushSubscriptionKeys)
  keys: PushSubscriptionKeys;

  @ApiPropertyOptional({
    enum: PUSH_LOCALES,
    default: 'zh-CN',
    description: "The language of this device's notifications (the app sends its own).",
  })
  @IsOptional()
  @IsIn(PUSH_LOCALES)
  locale?: PushLocale;
}

export class PushSubscriptionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() endpoint: string;
  @ApiProperty({ enum: PUSH_LOCALES }) locale: PushLocale;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class DeletePushSubscriptionQuery {
  @ApiProperty({ maxLength: 2048, description: 'The endpoint of the subscription to remove.' })
  @IsString()
  @MaxLength(2048)
  endpoint: string;
}
