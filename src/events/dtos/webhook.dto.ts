import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
} from 'class-validator';
import { SUBSCRIBABLE } from '../event-catalog';
import { OptionalInt } from '../../common/http/validators';
import { NextCursor } from '../../common/http/cursor-page';

export class CreateWebhookRequest {
  @ApiProperty({
    example: 'https://example.com/legwork/webhooks',
    maxLength: 2048,
    description:
      'Live mode: https only, and the host must resolve to public addresses only. Sandbox mode also allows http, ' +
      'localhost and private networks, so receivers on your own machine can be tested.',
  })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiProperty({
    enum: SUBSCRIBABLE,
    isArray: true,
    minItems: 1,
    maxItems: SUBSCRIBABLE.length,
    example: ['task.completed', 'task.failed'],
    description: 'Event names to receive; "*" subscribes to every event, including ones added later.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SUBSCRIBABLE.length)
  @ArrayUnique()
  @IsIn(SUBSCRIBABLE, {
    each: true,
    message: `each value in events must be one of ${SUBSCRIBABLE.join(', ')}`,
  })
  events: string[];
}

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: SUBSCRIBABLE, isArray: true }) events: string[];
  @ApiProperty({
    enum: ['active', 'disabled'],
    description:
      'disabled: three days of failed deliveries without a success; delete it and create a new one.',
  })
  status: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'First failure since the last success.',
  })
  failing_since: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_success_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) disabled_at: Date | null;
  @ApiProperty({ type: String, nullable: true }) disabled_reason: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}

export class CreatedWebhookResponse extends WebhookEndpointResponse {
  @ApiProperty({
    example: 'whsec_3kTj0bW9qL2mZxY7vA1cR5nD8eF4gH6iJ0kL2mN4',
    description:
      'Signing secret, shown only in this response. Verify Legwork-Signature "t=<unix>,v1=<hex>" = hex(HMAC-SHA256(secret, "<t>.<raw body>")) with t within 5 minutes, or the spec\'s X-Signature = "sha256=" + hex(HMAC-SHA256(secret, raw body)).',
  })
  secret: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookEndpointResponse] }) data: WebhookEndpointResponse[];
}

export class WebhookTestResponse {
  @ApiProperty({ format: 'uuid' }) delivery_id: string;
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty({ description: 'true when the receiver answered 2xx within 5 seconds.' }) delivered: boolean;
  @ApiProperty({ type: Number, nullable: true }) status_code: number | null;
  @ApiProperty() latency_ms: number;
  @ApiProperty({ type: String, nullable: true, example: 'redirect not followed (HTTP 302)' }) error:
    string | null;
}

export class DeliveryAttemptResponse {
  @ApiProperty() attempt: number;
  @ApiProperty({ type: String, format: 'date-time' }) started_at: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at: Date | null;
  @ApiProperty({ type: Number, nullable: true }) status_code: number | null;
  @ApiProperty({ type: Number, nullable: true }) latency_ms: number | null;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
}

export class DeliveryResponse {
  @ApiProperty({ format: 'uuid' }) delivery_id: string;
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty({ example: 'task.completed' }) event: string;
  @ApiProperty({ enum: ['event', 'redelivery', 'test'] }) kind: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'cancelled'] }) status: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ type: Number, nullable: true }) last_status_code: number | null;
  @ApiProperty({ type: Number, nullable: true }) last_latency_ms: number | null;
  @ApiProperty({ type: String, nullable: true }) last_error: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_attempt_at: Date | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due (pending deliveries only).',
  })
  next_retry_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: [DeliveryAttemptResponse] }) attempt_log: DeliveryAttemptResponse[];
}

export class DeliveryListResponse {
  @ApiProperty({ type: [DeliveryResponse] }) data: DeliveryResponse[];
  @ApiProperty() has_more: boolean;
  @NextCursor({ format: 'uuid' })
  next_cursor: string | null;
}

export class ListDeliveriesQuery {
  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The delivery_id of the last item of the previous page.',
  })
  @IsOptional()
  @IsUUID()
  starting_after?: string;

  @ApiPropertyOptional({ enum: ['pending', 'delivered', 'failed', 'cancelled'] })
  @IsOptional()
  @IsIn(['pending', 'delivered', 'failed', 'cancelled'])
  status?: string;
}

export class CallbackSecretResponse {
  @ApiProperty({
    example: 'whsec_3kTj0bW9qL2mZxY7vA1cR5nD8eF4gH6iJ0kL2mN4',
    description: 'Signs deliveries to the callback_url of your payment orders; shown only in this response.',
  })
  secret: string;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
}
