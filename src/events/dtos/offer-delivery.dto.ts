import { ApiProperty } from '@nestjs/swagger';
import {
  OFFER_CHANNELS,
  OFFER_DELIVERY_STATUSES,
  type OfferChannel,
  type OfferDeliveryStatus,
  type OfferDeliveryView,
} from '../offer-deliveries';

/** How an offer was sent on one channel (offer-deliveries.ts says what each status means). */
export class OfferDeliveryItem implements OfferDeliveryView {
  @ApiProperty({
    enum: OFFER_CHANNELS,
    description:
      'socket: your open app; push: Web Push to your devices; sms: a text with a link to the offer.',
  })
  channel: OfferChannel;

  @ApiProperty({
    enum: OFFER_DELIVERY_STATUSES,
    description:
      'sent: handed to the channel with you there to take it (for socket: at least one of your app’s connections was open); no_connection: no way to you on that channel (no app connected, no push subscription); failed: the channel refused or errored; skipped: a rule held it back (quiet hours, the daily limit, turned off).',
  })
  status: OfferDeliveryStatus;

  @ApiProperty({ format: 'date-time', description: 'When the channel was tried (the latest try).' })
  sent_at: string;
}
