import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { Trim } from '../../common/http/transforms';
import { NOT_BLANK, OptionalInt } from '../../common/http/validators';
import { LIMITS } from '../payment-rules';
import type { WithdrawalStatus } from '../payment.repository';

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
