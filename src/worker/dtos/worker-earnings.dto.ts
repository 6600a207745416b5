import { ApiProperty } from '@nestjs/swagger';

/** Earnings from the ledger; every figure in cents (CNY). */
export class WorkerEarningsResponse {
  @ApiProperty({ type: 'integer', description: 'Available to withdraw now.' }) balance_cents: number;
  @ApiProperty({ type: 'integer', description: 'In withdrawals not yet completed.' })
  withdrawing_cents: number;
  @ApiProperty({
    type: 'integer',
    description: 'Everything ever credited for work: task_earnings_cents + compensation_cents.',
  })
  total_earned_cents: number;
  @ApiProperty({ type: 'integer', description: 'Payouts of approved results.' }) task_earnings_cents: number;
  @ApiProperty({ type: 'integer', description: 'Your 30 % of accepted tasks the agent cancelled.' })
  compensation_cents: number;
  @ApiProperty({ type: 'integer', description: 'Earned since the start of this month (UTC).' })
  this_month_cents: number;
  @ApiProperty({ type: 'integer', description: 'Paid out to you by completed withdrawals.' })
  withdrawn_cents: number;
  @ApiProperty({ type: 'integer', description: 'Approved results.' }) completed_tasks: number;
  @ApiProperty({
    type: 'integer',
    description: 'Payouts of your submitted results still awaiting review (paid on approval).',
  })
  pending_review_cents: number;
  @ApiProperty({ example: 'CNY' }) currency: string;
}
