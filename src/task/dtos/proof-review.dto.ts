import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NOT_BLANK, OptionalInt } from '../../common/http/validators';
import { TaskResult } from './task-response.dto';

export const PROOF_REVIEW_STATUSES = ['open', 'decided'] as const;
export type ProofReviewStatus = (typeof PROOF_REVIEW_STATUSES)[number];
/** What an operator may decide (product-decisions §18; docs/decisions.md, "Proof review decisions"). */
export const OPERATOR_PROOF_OUTCOMES = ['confirmed_fraud', 'cleared'] as const;
export type OperatorProofOutcome = (typeof OPERATOR_PROOF_OUTCOMES)[number];
/** Every outcome a review can end with: an operator's, or the agent's own verdict on the held result. */
export const PROOF_REVIEW_OUTCOMES = [
  ...OPERATOR_PROOF_OUTCOMES,
  'agent_approved',
  'agent_rejected',
] as const;
export type ProofReviewOutcome = (typeof PROOF_REVIEW_OUTCOMES)[number];

export class ListProofReviewsQuery {
  @ApiPropertyOptional({
    enum: PROOF_REVIEW_STATUSES,
    default: 'open',
    description:
      'open: held high-risk submissions nobody decided, and those approved after 14 days with a note; decided: decided by an operator or by the agent.',
  })
  @IsOptional()
  @IsIn(PROOF_REVIEW_STATUSES)
  status?: ProofReviewStatus;

  @OptionalInt({ min: 0, default: 0 })
  skip?: number;

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;
}

export class ProofReviewDecisionRequest {
  @ApiProperty({
    enum: OPERATOR_PROOF_OUTCOMES,
    description:
      'confirmed_fraud: a held result is rejected (its slot refunded as a rejection would) and the worker loses 1 reputation point; cleared: the hold is lifted (the agent may still decide; auto-approval 72 hours from now).',
  })
  @IsIn(OPERATOR_PROOF_OUTCOMES)
  outcome: OperatorProofOutcome;

  @ApiPropertyOptional({
    default: false,
    description:
      'confirmed_fraud only: suspend the worker (no going on call, no taking tasks) until reviewed.',
  })
  @IsOptional()
  @IsBoolean()
  suspend_worker?: boolean;

  @ApiPropertyOptional({
    default: false,
    description: "confirmed_fraud only: pause the worker's withdrawals until reviewed.",
  })
  @IsOptional()
  @IsBoolean()
  pause_withdrawals?: boolean;

  @ApiProperty({
    maxLength: 2000,
    description: 'Why, for the audit log and the operators (never sent to the worker).',
  })
  @IsString()
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  @MaxLength(2000)
  note: string;
}

export class ProofReviewDecisionView {
  @ApiProperty({ enum: PROOF_REVIEW_OUTCOMES }) outcome: ProofReviewOutcome;
  @ApiProperty({ enum: ['operator', 'agent'] }) decided_by: 'operator' | 'agent';
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) operator_id: string | null;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
  @ApiProperty({ format: 'date-time' }) decided_at: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The suspension or withdrawal pause the decision started.',
  })
  suspension_id: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a confirmed fraud was reversed after the worker asked for a review.',
  })
  reversed_at: string | null;
}

export class ProofReviewWorkerView {
  @ApiProperty({ format: 'uuid', description: 'The worker’s id (no name or phone number is shown).' })
  worker_id: string;
  @ApiProperty() reputation: number;
  @ApiProperty({ enum: ['active', 'suspended', 'closed'] }) account_status: string;
  @ApiProperty({ description: 'A live suspension after a confirmed fraud.' }) suspended: boolean;
  @ApiProperty() withdrawals_paused: boolean;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) suspension_id: string | null;
  @ApiProperty({ description: 'Confirmed frauds not reversed.' }) confirmed_frauds: number;
}

export class ProofReviewLocation {
  @ApiProperty() latitude: number;
  @ApiProperty() longitude: number;
  @ApiProperty({ type: String, nullable: true }) address: string | null;
  @ApiProperty() max_distance_meters: number;
}

export class ProofReviewTaskView {
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ format: 'uuid' }) agent_id: string;
  @ApiProperty() title: string;
  @ApiProperty() task_type: string;
  @ApiProperty() status: string;
  @ApiProperty({ type: ProofReviewLocation }) location: ProofReviewLocation;
}

export class ProofReviewSubmission extends TaskResult {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty() status: string;
  @ApiProperty({ format: 'date-time' }) submitted_at: string;
}

/** The earlier photo a reused_photo signal matched: operators see whose it was (agents never do). */
export class ProofReviewMatch {
  @ApiProperty({ format: 'uuid' }) assignment_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ format: 'uuid' }) agent_id: string;
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ description: 'The same worker as this submission’s.' }) same_worker: boolean;
  @ApiProperty({
    description: 'Hamming distance between the perceptual hashes, in bits (0: the same picture).',
  })
  distance_bits: number;
  @ApiProperty({ format: 'date-time' }) recorded_at: string;
  @ApiProperty({ type: [String], description: 'The earlier submission’s photo links.' }) photo_urls: string[];
}

export class ProofReviewTrailPoint {
  @ApiProperty() latitude: number;
  @ApiProperty() longitude: number;
  @ApiProperty({ type: Number, nullable: true }) accuracy_m: number | null;
  @ApiProperty({ enum: ['availability', 'submission_device', 'submission_photo'] }) source: string;
  @ApiProperty({ format: 'date-time' }) reported_at: string;
}

export class ProofReviewResponse {
  @ApiProperty({ format: 'uuid', description: 'The review’s id: the held assignment’s id.' })
  review_id: string;
  @ApiProperty({ enum: PROOF_REVIEW_STATUSES }) status: ProofReviewStatus;
  @ApiProperty({
    enum: ['held', 'approved_after_hold', 'rejected', 'approved'],
    description:
      'held: waiting for a decision; approved_after_hold: nobody decided within 14 days, so it was approved (see note); otherwise what became of the result.',
  })
  hold: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'What happened without the operators (the 14-day note).',
  })
  note: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) review_deadline_at: string | null;
  @ApiProperty({ type: ProofReviewDecisionView, nullable: true }) decision: ProofReviewDecisionView | null;
  @ApiProperty({ type: ProofReviewSubmission }) submission: ProofReviewSubmission;
  @ApiProperty({ type: ProofReviewWorkerView }) worker: ProofReviewWorkerView;
  @ApiProperty({ type: ProofReviewTaskView }) task: ProofReviewTaskView;
  @ApiProperty({
    type: [ProofReviewMatch],
    description:
      'For reused_photo: the earlier photos on the platform this submission’s photos are near-duplicates of.',
  })
  reused_matches: ProofReviewMatch[];
  @ApiProperty({
    type: [ProofReviewTrailPoint],
    description:
      'For impossible_travel: the worker’s positions from 24 hours before the submission to the submission (kept 30 days).',
  })
  travel_trail: ProofReviewTrailPoint[];
}

export class ProofReviewListResponse {
  @ApiProperty({ type: [ProofReviewResponse] }) items: ProofReviewResponse[];
  @ApiProperty() total: number;
  @ApiProperty() skip: number;
  @ApiProperty() limit: number;
  @ApiProperty() has_more: boolean;
}
