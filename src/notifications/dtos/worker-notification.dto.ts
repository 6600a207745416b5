import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import { OptionalInt } from '../../common/http/validators';
import { NOTICE_CHANNELS, NOTICE_DELIVERY_STATUSES } from '../../events/worker-notification-deliveries';
import { NOTIFICATION_DISPUTE_OUTCOMES, NOTIFICATION_KINDS } from '../worker-notifications.rows';

export class WorkerNotificationsQuery {
  @OptionalInt({ min: 1, max: 100, default: 50 })
  limit?: number;

  @OptionalInt({ min: 0, default: 0 })
  offset?: number;
}

export class NotificationDeliveryView {
  @ApiProperty({ enum: NOTICE_CHANNELS }) channel: string;

  @ApiProperty({
    enum: NOTICE_DELIVERY_STATUSES,
    description:
      'sent: handed to the channel; no_connection: no socket open or no device subscribed; failed; skipped (turned off, read already, daily cap); waiting: an SMS held until the quiet hours end (08:00 China time).',
  })
  status: string;

  @ApiProperty({ format: 'date-time' }) sent_at: string;
}

export class WorkerNotificationView {
  @ApiProperty({ format: 'uuid' }) notification_id: string;

  @ApiProperty({
    enum: NOTIFICATION_KINDS,
    description:
      'paid: your result was approved and paid; unable_paid: your "could not do it" report was accepted and paid its share; rejected: your result was rejected (reason_code, reason_text); dispute_decided: an operator decided your dispute (dispute_outcome); compensated: the agent cancelled a task you had accepted and you were paid 30 %.',
  })
  kind: string;

  @ApiProperty({ format: 'uuid', description: 'Your assignment; the app opens /app/mine/{assignment_id}.' })
  assignment_id: string;

  @ApiProperty({ format: 'uuid' }) task_id: string;

  @ApiProperty() task_title: string;

  @ApiProperty({
    type: 'integer',
    description:
      'What this paid you, net of the platform fee, in fen (0 for a rejection or an upheld dispute).',
  })
  amount_cents: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why the agent rejected the result (rejected); confirmed_fraud, with no reason_text, when an operator reviewed the proof and confirmed it was not genuine.',
  })
  reason_code: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The agent’s words with a rejection, as they wrote them (rejected).',
  })
  reason_text: string | null;

  @ApiProperty({ type: String, enum: NOTIFICATION_DISPUTE_OUTCOMES, nullable: true })
  dispute_outcome: string | null;

  @ApiProperty({ format: 'date-time' }) created_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null while unread.' })
  read_at: string | null;

  @ApiProperty({
    type: [NotificationDeliveryView],
    description: 'How it reached you: socket (the open app), push (your subscribed devices), sms.',
  })
  deliveries: NotificationDeliveryView[];
}

export class WorkerNotificationsResponse {
  @ApiProperty({ type: [WorkerNotificationView], description: 'Newest first.' })
  notifications: WorkerNotificationView[];

  @ApiProperty({ type: 'integer', description: 'Your notifications in all pages.' }) total: number;

  @ApiProperty({ type: 'integer', description: 'Of them, not read yet.' }) unread_count: number;

  @ApiProperty({ type: 'integer' }) limit: number;

  @ApiProperty({ type: 'integer' }) offset: number;
}

export class MarkNotificationsReadRequest {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: 100,
    description: 'Your notifications to mark read; ids not yours or read already change nothing.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  notification_ids: string[];
}

export class MarkNotificationsReadResponse {
  @ApiProperty({ type: 'integer', description: 'Your notifications still unread.' }) unread_count: number;
}
