import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The `data` of each event, as classes: TypeScript types for writeEvent (through EVENT_CATALOG in event-catalog.ts)
 * and OpenAPI schemas (components, the typed WebhookEvent union, docs/webhooks.md) from the same declaration.
 * Only plain fields, so an object literal of the right shape is one of them.
 */

/** A task changed status (the agent's view). */
export class TaskEventData {
  @ApiProperty({ format: 'uuid' })
  task_id: string;

  @ApiProperty({
    example: 'completed',
    description: 'The status the task entered (the event name says which).',
  })
  status: string;

  @ApiProperty({ example: 'submitted', description: 'The status it left.' })
  previous_status: string;
}

/** An assignment changed status (the worker's view). */
export class AssignmentEventData {
  @ApiProperty({ format: 'uuid' })
  assignment_id: string;

  @ApiProperty({ format: 'uuid' })
  task_id: string;

  @ApiProperty({ example: 'accepted', description: 'The status the assignment entered.' })
  status: string;
}

export class OfferedTaskLocation {
  @ApiProperty({ example: 31.2304 })
  latitude: number;

  @ApiProperty({ example: 121.4737 })
  longitude: number;

  @ApiProperty({ type: String, nullable: true })
  address: string | null;

  @ApiProperty({ type: 'integer', example: 1000 })
  max_distance_meters: number;
}

/** What a push offer shows the worker about the task, so the app can render it without another request. */
export class OfferedTask {
  @ApiProperty({ format: 'uuid' })
  task_id: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ example: 'photo' })
  task_type: string;

  @ApiProperty({ type: 'integer', example: 4500, description: 'What the worker receives for the slot.' })
  payment_cents: number;

  @ApiProperty({ format: 'date-time' })
  deadline_at: string;

  @ApiProperty({ type: [String] })
  required_skills: string[];

  @ApiProperty({ type: OfferedTaskLocation })
  location: OfferedTaskLocation;

  @ApiProperty({ type: 'integer', description: 'From the worker’s last reported position.' })
  distance_meters: number;
}

export class AssignmentOfferedData extends AssignmentEventData {
  @ApiProperty({ format: 'date-time', description: 'Accept or decline before this; then the offer lapses.' })
  offer_expires_at: string;

  @ApiProperty({ type: OfferedTask })
  task: OfferedTask;
}

export class AssignmentPaidData extends AssignmentEventData {
  @ApiProperty({ type: 'integer', example: 4500, description: 'The slot’s payout to the worker.' })
  payment_cents: number;
}

export class AssignmentCancelledData extends AssignmentEventData {
  @ApiPropertyOptional({
    type: 'integer',
    example: 1500,
    description: 'The 30 % paid to a worker who had accepted; absent for a withdrawn offer.',
  })
  compensation_cents?: number;
}

/** A payment order changed status. */
export class OrderEventData {
  @ApiProperty({ example: 'pay_3kTj0bW9qL2m' })
  order_id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null for a plain recharge.' })
  task_id: string | null;

  @ApiProperty({ type: 'integer', example: 5000, description: 'Cents.' })
  amount: number;

  @ApiProperty({ example: 'CNY' })
  currency: string;

  @ApiProperty({ example: 'wechat' })
  payment_method: string;

  @ApiProperty({ example: 'completed' })
  status: string;

  @ApiProperty({ type: String, nullable: true, description: 'The provider’s transaction id, once known.' })
  transaction_id: string | null;
}

export class RefundEventData extends OrderEventData {
  @ApiProperty({ example: 'ref_8aQm2kZ0' })
  refund_id: string;
}

export class WebhookDisabledData {
  @ApiProperty({ format: 'uuid' })
  webhook_id: string;

  @ApiProperty({ example: 'https://agent.example/hooks' })
  url: string;

  @ApiProperty({ example: 'no successful delivery for 3 days' })
  reason: string;

  @ApiProperty({ format: 'date-time' })
  failing_since: string;

  @ApiProperty({ format: 'date-time' })
  disabled_at: string;
}

export class WebhookTestData {
  @ApiProperty({ format: 'uuid' })
  webhook_id: string;

  @ApiProperty({ example: 'A test event from Legwork. Answer 2xx within 5 seconds.' })
  message: string;
}
