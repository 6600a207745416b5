import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { Trim } from '../../common/http/transforms';
import { NOT_BLANK, OptionalInt } from '../../common/http/validators';
import { LIMITS } from '../payment-rules';
import type { WithdrawalStatus } from '../payment.repository';
import { NextCursor } from '../../common/http/cursor-page';

export const WITHDRAWAL_STATUSES: WithdrawalStatus[] = [
  'pending_review',
  'processing',
  'completed',
  'failed',
  'rejected',
];

export class WithdrawalRequest {
  @ApiProperty({
    type: 'integer',
    minimum: LIMITS.withdrawalMinCents,
    maximum: LIMITS.withdrawalMaxCents,
    example: 20000,
    description: `From ${LIMITS.withdrawalReviewCents} cents, and for a worker's first withdrawal, an operator reviews first.`,
  })
  @IsInt()
  @Min(LIMITS.withdrawalMinCents)
  @Max(LIMITS.withdrawalMaxCents)
  amount_cents: number;

  @ApiProperty({
    example: 'worker@example.com',
    description: 'The Alipay account to pay: a login id (email or mobile number) or a 2088... user id.',
  })
  @Trim()
  @IsString()
  @Length(1, 100)
  @Matches(NOT_BLANK, { message: 'must not be blank' })
  alipay_account: string;

  @ApiPropertyOptional({
    example: '张三',
    description: "The account holder's real name; required unless alipay_account is a 2088 user id.",
  })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 50)
  real_name?: string;
}

export class WithdrawalResponse {
  @ApiProperty() withdrawal_id: string;
  @ApiProperty({ type: 'integer' }) amount_cents: number;
  @ApiProperty({
    enum: WITHDRAWAL_STATUSES,
    description:
      'pending_review: waits for an operator; processing: sent to the provider; completed: paid out; ' +
      'failed or rejected: the amount is back in the available balance.',
  })
  status: WithdrawalStatus;
  @ApiProperty() alipay_account: string;
  @ApiProperty({ type: String, nullable: true }) real_name: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['large_amount', 'first_withdrawal'] })
  review_reason: string | null;
  @ApiProperty({ type: String, nullable: true }) failure_reason: string | null;
  @ApiProperty({ type: String, nullable: true }) rejection_reason: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: Date | null;
}

export class AdminWithdrawalResponse extends WithdrawalResponse {
  @ApiProperty({ format: 'uuid' }) worker_id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) reviewed_by: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) reviewed_at: Date | null;
  @ApiProperty({ type: String, nullable: true }) provider_transfer_id: string | null;
}

export class ListWithdrawalsQuery {
  @ApiPropertyOptional({ enum: WITHDRAWAL_STATUSES })
  @IsOptional()
  @IsIn(WITHDRAWAL_STATUSES)
  status?: WithdrawalStatus;

  @OptionalInt({ min: 0, default: 0 })
  skip?: number;

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;
}

export class AdminWithdrawalListResponse {
  @ApiProperty({
    type: AdminWithdrawalResponse,
    isArray: true,
    description: 'Oldest first (review queue order).',
  })
  items: AdminWithdrawalResponse[];
  @ApiProperty({ type: 'integer' }) total: number;
  @ApiProperty({ type: 'integer' }) skip: number;
  @ApiProperty({ type: 'integer' }) limit: number;
  @ApiProperty() has_more: boolean;
}

export class RejectWithdrawalRequest {
  @ApiProperty({ maxLength: 500, example: 'Payout account does not match the worker.' })
  @Trim()
  @IsString()
  @Length(1, 500)
  reason: string;
}

export class ConfirmBankTransferRequest {
  @ApiProperty({ maxLength: 100, description: "The bank's reference of the transfer received." })
  @Trim()
  @IsString()
  @Length(1, 100)
  bank_reference: string;
}

/** A withdrawal id as the API shows it (`wd` and 24 base62 characters). */
const WITHDRAWAL_ID = /^wd[0-9A-Za-z]{24}$/;

export class WorkerWithdrawalsQuery {
  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit?: number;

  @ApiPropertyOptional({
    example: 'wd4kTqz0vYc2mB8nR1xLp7sA9e',
    description: 'The withdrawal_id of the last item of the previous page (next_cursor).',
  })
  @IsOptional()
  @IsString()
  @Matches(WITHDRAWAL_ID, { message: 'must be a withdrawal id (wd...)' })
  starting_after?: string;
}

/** One of the worker's own withdrawals, as the worker reads it: the payee account masked, no operator details. */
export class WorkerWithdrawalItem {
  @ApiProperty({ example: 'wd4kTqz0vYc2mB8nR1xLp7sA9e' }) withdrawal_id: string;
  @ApiProperty({ type: 'integer', example: 20000 }) amount_cents: number;
  @ApiProperty({
    enum: WITHDRAWAL_STATUSES,
    description:
      'pending_review: waits for an operator; processing: sent to Alipay; completed: paid out; failed or rejected: the amount is back in the available balance.',
  })
  status: WithdrawalStatus;
  @ApiProperty({
    example: 'w***@example.com',
    description: 'The Alipay account, masked: enough to recognise it, not to read it off a shared screen.',
  })
  alipay_account: string;
  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['large_amount', 'first_withdrawal'],
    description: 'Why an operator reviews it (null when it was transferred at once).',
  })
  review_reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The operator’s reason (rejected only).' })
  rejection_reason: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'What the provider said (failed only).' })
  failure_reason: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) created_at: Date;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When an operator decided.',
  })
  reviewed_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: Date | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'The last change of status.' })
  updated_at: Date;
}

export class WorkerWithdrawalPage {
  @ApiProperty({ type: [WorkerWithdrawalItem], description: 'Newest first.' })
  data: WorkerWithdrawalItem[];
  @ApiProperty() has_more: boolean;
  @NextCursor({ example: null })
  next_cursor: string | null;
}
