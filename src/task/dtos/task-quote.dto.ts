import { AnswerSchema, ReviewPolicy } from './answer-schema.dto';
import { ApiProperty } from '@nestjs/swagger';
import { WORKER_COUNT_BUCKETS } from '../domain/quote-privacy';
import { CostBreakdown } from './task-response.dto';

export class QuoteSlot {
  @ApiProperty({ type: 'integer', example: 5000, description: 'budget_cents: the gross price of one slot.' })
  budget_cents: number;

  @ApiProperty({ type: 'integer', example: 4500, description: 'What the worker of one slot receives.' })
  worker_payout_cents: number;

  @ApiProperty({ type: 'integer', example: 500, description: 'The platform fee of one slot.' })
  platform_fee_cents: number;
}

export class QuoteBalance {
  @ApiProperty({ type: 'integer', example: 20_000, description: 'Your available balance now.' })
  available_cents: number;

  @ApiProperty({ description: 'Whether the available balance covers total_to_hold_cents.' })
  covers: boolean;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description: 'What is missing (0 when covered): top up at least this much before creating.',
  })
  shortfall_cents: number;
}

export class QuoteConcurrency {
  @ApiProperty({
    type: 'integer',
    description: 'Your tasks pending, assigned, in progress or submitted now.',
  })
  active_tasks: number;

  @ApiProperty({ type: 'integer', description: 'How many may be active at once.' })
  max_concurrent_tasks: number;

  @ApiProperty({
    description: 'Whether one more task fits (otherwise creation is 429 concurrent_task_limit).',
  })
  within_limit: boolean;
}

/** One situation of the refund policy, per slot, in cents. */
export class QuoteRefundCase {
  @ApiProperty({ description: 'Whether this can happen (a cancel once work started is refused).' })
  allowed: boolean;

  @ApiProperty({ type: 'integer', example: 5000, description: 'Back to your available balance, per slot.' })
  refund_cents_per_slot: number;

  @ApiProperty({ type: 'integer', example: 0, description: "Paid to the slot's worker, per slot." })
  worker_cents_per_slot: number;

  @ApiProperty({
    type: 'integer',
    example: 100,
    description: 'refund_cents_per_slot as a percentage of budget.',
  })
  refund_percent: number;
}

export class QuoteRefundPolicy {
  @ApiProperty({
    type: QuoteRefundCase,
    description:
      'A worker’s "could not do it" report accepted: unable_payout_percent of the budget less its fee to the worker, the rest back to you.',
  })
  worker_unable: QuoteRefundCase;

  @ApiProperty({ type: QuoteRefundCase, description: 'Cancelled while no worker holds the slot: 100 %.' })
  cancel_unassigned: QuoteRefundCase;

  @ApiProperty({
    type: QuoteRefundCase,
    description: 'Cancelled while a worker has accepted the slot: 70 % back, 30 % to the worker.',
  })
  cancel_assigned: QuoteRefundCase;

  @ApiProperty({
    type: QuoteRefundCase,
    description: 'Cancel once work is in progress or a result is submitted: refused (409 invalid_state).',
  })
  cancel_in_progress: QuoteRefundCase;

  @ApiProperty({ type: QuoteRefundCase, description: 'You reject a submitted result: the slot is refunded.' })
  result_rejected: QuoteRefundCase;

  @ApiProperty({
    type: QuoteRefundCase,
    description: 'The deadline passes with the slot unfinished (open, offered, accepted or in progress).',
  })
  deadline_expired: QuoteRefundCase;

  @ApiProperty({
    type: QuoteRefundCase,
    description:
      'A worker abandons the slot: it reopens for another worker at no extra cost, nothing refunded.',
  })
  worker_abandons: QuoteRefundCase;
}

export class QuoteAutoApproval {
  @ApiProperty({
    type: 'integer',
    example: 72,
    description:
      'A submitted result you have not reviewed is approved (and paid) this many hours after submission.',
  })
  delay_hours: number;
}

/**
 * Workers near the task, coarsely (product-decisions §16, "Quote privacy"): enough to judge whether a task will find
 * someone, never enough to locate a person.
 */
export class QuoteWorkers {
  @ApiProperty({
    type: 'integer',
    example: 2000,
    description:
      "The radius people were counted within: location.max_distance_meters (default 1000) or 2000, whichever is larger, around the centre of the 500 m grid cell holding the task's point (rows 500 m tall from the equator, each cut into 500 m columns along its middle parallel, on the sphere distances are measured on). Any point of the same cell gives the same figures.",
  })
  radius_meters: number;

  @ApiProperty({
    type: 'integer',
    enum: [...WORKER_COUNT_BUCKETS],
    example: 5,
    description:
      'At least this many people online within radius_meters who could take the task (active, holding every required skill, reputation at least min_reputation): the lower bound of a bucket, 0, 1 (1 to 4), 5 (5 to 19), 20 (20 to 99) or 100 (100 and more). Simulated workers are not in it.',
  })
  eligible_online: number;

  @ApiProperty({
    type: 'integer',
    enum: [...WORKER_COUNT_BUCKETS],
    example: 1,
    description:
      'Of those, at least this many are free to be offered a slot at once (no other offer waiting, below their live-assignment cap), in the same buckets.',
  })
  available_now: number;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description:
      "Sandbox: your own simulated workers online who could take the task, counted exactly at the task's point within location.max_distance_meters (the ones the offers would reach). Always 0 in live mode.",
  })
  simulated_online: number;
}

/** What a task would cost and what would happen to the money, without creating it. */
export class TaskQuoteResponse {
  @ApiProperty({
    type: () => AnswerSchema,
    nullable: true,
    description: 'The answer_schema as checked (creation would accept it); null without one.',
  })
  answer_schema: Record<string, unknown> | null;

  @ApiProperty({ type: () => ReviewPolicy, nullable: true })
  review_policy: ReviewPolicy | null;

  @ApiProperty({ type: 'integer', example: 1 })
  max_workers: number;

  @ApiProperty({
    type: 'integer',
    example: 20,
    description:
      'The share of a slot’s budget, in percent, an accepted "could not do it" report would pay (see refund_policy.worker_unable).',
  })
  unable_payout_percent: number;

  @ApiProperty({
    type: 'integer',
    example: 1000,
    description: 'Your platform fee rate in basis points (1000 = 10 %).',
  })
  fee_bps: number;

  @ApiProperty({ type: QuoteSlot })
  per_slot: QuoteSlot;

  @ApiProperty({ type: CostBreakdown, description: 'Exactly the cost_breakdown creation would answer.' })
  cost_breakdown: CostBreakdown;

  @ApiProperty({
    type: 'integer',
    example: 5000,
    description: 'Taken from your available balance into escrow at creation (= cost_breakdown.total_cents).',
  })
  total_to_hold_cents: number;

  @ApiProperty({ type: QuoteBalance })
  balance: QuoteBalance;

  @ApiProperty({ type: QuoteConcurrency })
  concurrency: QuoteConcurrency;

  @ApiProperty({
    description:
      'Whether creating this task now would succeed: the balance covers it and it fits the concurrency limit.',
  })
  can_create: boolean;

  @ApiProperty({ type: QuoteRefundPolicy })
  refund_policy: QuoteRefundPolicy;

  @ApiProperty({ type: QuoteAutoApproval })
  auto_approval: QuoteAutoApproval;

  @ApiProperty({ type: QuoteWorkers })
  workers: QuoteWorkers;

  @ApiProperty({
    format: 'date-time',
    description: 'As creation would set it: now + the typical time for the type, never after deadline_at.',
  })
  estimated_completion_at: string;
}
