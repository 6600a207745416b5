import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { WEBHOOK_EVENTS } from '../event-catalog';
import { OptionalInt } from '../../common/http/validators';

export class EventResponse {
  @ApiProperty({ enum: WEBHOOK_EVENTS, example: 'task.completed' }) event: string;
  @ApiProperty({ format: 'uuid', description: 'Unique per event: receivers de-duplicate by it.' })
  event_id: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Task events only (payment events carry task_id in data).',
  })
  task_id?: string;
  @ApiProperty({ type: String, format: 'date-time' }) timestamp: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: {
      task_id: '0b9c6f1e-2a4d-4e7b-9f3a-1c2d3e4f5a6b',
      status: 'completed',
      previous_status: 'submitted',
    },
    description:
      'Task events: {task_id, status, previous_status}; task.submitted adds submissions, every result awaiting ' +
      'review: [{assignment_id, worker_id, status, submitted_at, data, worker_notes, photos}]. Payment events: {order_id, task_id, amount, currency, ' +
      'payment_method, status, transaction_id}. webhook.disabled: {webhook_id, url, reason, failing_since, disabled_at}.',
  })
  data: Record<string, unknown>;
}

export class EventListResponse {
  @ApiProperty({ type: [EventResponse] }) data: EventResponse[];
  @ApiProperty() has_more: boolean;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Pass as starting_after for the next page; null on the last page.',
  })
  next_cursor: string | null;
}

export class ListEventsQuery {
  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;

  @ApiPropertyOptional({ format: 'uuid', description: 'The event_id of the last item of the previous page.' })
  @IsOptional()
  @IsUUID()
  starting_after?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, description: 'Only events of this name.' })
  @IsOptional()
  @IsIn(WEBHOOK_EVENTS)
  type?: string;
}

export class RedeliveryResponse {
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: {
        delivery_id: { type: 'string', format: 'uuid' },
        webhook_id: { type: 'string', format: 'uuid' },
      },
    },
    description: 'One new delivery per active endpoint subscribed to the event (empty when there is none).',
  })
  deliveries: { delivery_id: string; webhook_id: string }[];
}
