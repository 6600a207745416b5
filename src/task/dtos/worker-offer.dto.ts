import { ApiProperty } from '@nestjs/swagger';
import { OfferDeliveryItem } from '../../events/dtos/offer-delivery.dto';
import { AvailableTaskItem } from './worker-task.dto';

/**
 * Why the offer went to you (product-decisions §5, §19 "each offer explains why it was made"): the ranking's inputs
 * when it was made, and the task's conditions you met. Offers go only to workers on call with a fresh position.
 */
export class OfferWhy {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'How far your reported position was from the task when it was offered.',
  })
  distance_meters: number | null;

  @ApiProperty({ type: Number, nullable: true, example: 4.2, description: 'Your reputation then (0 to 5).' })
  reputation: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 0.8,
    description:
      'Your responsiveness then, 0 to 1: 1 minus your median time to answer your recent offers over the 120 s window (0.5 before your first offer).',
  })
  response: number | null;

  @ApiProperty({
    type: 'integer',
    example: 3000,
    description: "The task's radius: offers reach only workers within it; the nearer, the higher you ranked.",
  })
  max_distance_meters: number;

  @ApiProperty({
    type: [String],
    example: ['photography'],
    description:
      "The task's required skills, each of which you hold (a task is offered only to workers holding all of them); empty when it asks for none.",
  })
  skills_matched: string[];

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 4,
    description: "The task's minimum reputation, which yours met; null when it sets none.",
  })
  min_reputation: number | null;
}

/** An offer waiting for your answer: a slot held for you until expires_at. */
export class WorkerOffer {
  @ApiProperty({ format: 'uuid' })
  assignment_id: string;

  @ApiProperty({
    type: AvailableTaskItem,
    description: 'The task as the available list shows it; distance_meters from your last reported position.',
  })
  task: AvailableTaskItem;

  @ApiProperty({ format: 'date-time' })
  offered_at: string;

  @ApiProperty({
    format: 'date-time',
    description:
      'Answer before this (accept with POST /v1/worker/tasks/{task_id}/accept, decline with POST /v1/worker/assignments/{assignment_id}/decline); then the slot goes to the next worker.',
  })
  expires_at: string;

  @ApiProperty({ type: [OfferDeliveryItem], description: 'How the offer was sent to you, per channel.' })
  deliveries: OfferDeliveryItem[];

  @ApiProperty({ type: OfferWhy })
  why: OfferWhy;
}

export class WorkerOffersResponse {
  @ApiProperty({ type: [WorkerOffer], description: 'Offers still open, the soonest to expire first.' })
  offers: WorkerOffer[];
}
