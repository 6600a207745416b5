import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { NOT_BLANK, OptionalInt } from '../../common/http/validators';
import {
  REVIEW_OUTCOMES,
  REVIEW_SUBJECTS,
  type ReviewOutcome,
  type ReviewSubject,
} from '../domain/review-subjects';

export const REVIEW_REQUEST_STATUSES = ['open', 'decided'] as const;
export type ReviewRequestStatus = (typeof REVIEW_REQUEST_STATUSES)[number];

export class CreateWorkerReviewRequest {
  @ApiProperty({
    enum: REVIEW_SUBJECTS,
    description:
      'fraud_hold: a confirmed fraud on one of your submissions (subject_id: its review_id); suspension: a suspension or withdrawal pause of your account (subject_id: its suspension_id).',
  })
  @IsIn(REVIEW_SUBJECTS)
  subject: ReviewSubject;

  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  subject_id: string;

  @ApiProperty({ maxLength: 2000, description: 'What you want the person to know.' })
  @IsString()
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  @MaxLength(2000)
  statement: string;
}

export class WorkerReviewResponse {
  @ApiProperty({ format: 'uuid' }) review_id: string;
  @ApiProperty({ enum: REVIEW_SUBJECTS }) subject: ReviewSubject;
  @ApiProperty({ format: 'uuid' }) subject_id: string;
  @ApiProperty() statement: string;
  @ApiProperty({ enum: REVIEW_REQUEST_STATUSES }) status: ReviewRequestStatus;
  @ApiProperty({ enum: REVIEW_OUTCOMES, nullable: true, type: String }) outcome: ReviewOutcome | null;
  @ApiProperty({ type: String, nullable: true, description: 'The operator’s words, once decided.' })
  note: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decided_at: string | null;
}

export class WorkerSuspensionView {
  @ApiProperty({ format: 'uuid', description: 'subject_id for a review of subject `suspension`.' })
  suspension_id: string;
  @ApiProperty() suspended: boolean;
  @ApiProperty() withdrawals_paused: boolean;
  @ApiProperty({ description: 'Why, in words.' }) reason: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class WorkerFraudHoldView {
  @ApiProperty({ format: 'uuid', description: 'subject_id for a review of subject `fraud_hold`.' })
  review_id: string;
  @ApiProperty({ format: 'uuid' }) task_id: string;
  @ApiProperty({ format: 'date-time' }) decided_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Reversed after a review.' })
  reversed_at: string | null;
}

/** The worker's standing: what was decided about them and what they asked. */
export class WorkerReviewsResponse {
  @ApiProperty({ description: 'No going on call and no taking tasks while true.' }) suspended: boolean;
  @ApiProperty() withdrawals_paused: boolean;
  @ApiProperty({ type: [WorkerSuspensionView], description: 'Live suspensions and withdrawal pauses.' })
  suspensions: WorkerSuspensionView[];
  @ApiProperty({ type: [WorkerFraudHoldView] }) fraud_holds: WorkerFraudHoldView[];
  @ApiProperty({ type: [WorkerReviewResponse], description: 'Your review requests, newest first.' })
  requests: WorkerReviewResponse[];
}

export class ListWorkerReviewsQuery {
  @ApiPropertyOptional({ enum: REVIEW_REQUEST_STATUSES, default: 'open' })
  @IsOptional()
  @IsIn(REVIEW_REQUEST_STATUSES)
  status?: ReviewRequestStatus;

  @OptionalInt({ min: 0, default: 0 })
  skip?: number;

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;
}

export class AdminWorkerReviewResponse extends WorkerReviewResponse {
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) operator_id: string | null;
  @ApiProperty({
    description:
      'Whether the subject still has something to reverse (a confirmed fraud not reversed, a live suspension).',
  })
  subject_live: boolean;
}

export class AdminWorkerReviewListResponse {
  @ApiProperty({ type: [AdminWorkerReviewResponse] }) items: AdminWorkerReviewResponse[];
  @ApiProperty() total: number;
  @ApiProperty() skip: number;
  @ApiProperty() limit: number;
  @ApiProperty() has_more: boolean;
}

export class WorkerReviewDecisionRequest {
  @ApiProperty({
    enum: REVIEW_OUTCOMES,
    description:
      'upheld: the decision stands; reversed: a confirmed fraud loses its reputation penalty and the suspension it started, a suspension is lifted (with its withdrawal pause).',
  })
  @IsIn(REVIEW_OUTCOMES)
  outcome: ReviewOutcome;

  @ApiProperty({
    maxLength: 2000,
    description: 'Sent to the worker with the outcome, and kept in the audit log.',
  })
  @IsString()
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  @MaxLength(2000)
  note: string;
}
