import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { type EventPayload, WEBHOOK_EVENTS } from '../event-catalog';
import { OptionalInt } from '../../common/http/validators';
import { NextCursor } from '../../common/http/cursor-page';

export class EventListResponse {
  @ApiProperty({
    type: 'array',
    items: { $ref: '#/components/schemas/WebhookEvent' },
    description: 'Each in the webhook payload shape, typed by its `event` (see WebhookEvent).',
  })
  data: EventPayload[];
  @ApiProperty() has_more: boolean;
  @NextCursor({ format: 'uuid' })
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

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only events of this task (its whole history; the MCP `wait_for_task` tool polls this).',
  })
  @IsOptional()
  @IsUUID()
  task_id?: string;
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
