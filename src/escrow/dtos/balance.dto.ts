import { ApiProperty } from '@nestjs/swagger';

/** Machine-readable form: the agent's available balance only. */
export class BalanceResponse {
  /** Available balance (not counting escrow), integer cents. */
  @ApiProperty({ type: 'integer', example: 125000 })
  balance_cents: number;

  @ApiProperty({ example: 1250 })
  balance_rmb: number;

  @ApiProperty({
    type: 'integer',
    example: 0,
    description:
      'What you owe from dispute decisions your balance could not cover (product-decisions §19). Your next top-ups ' +
      'repay it first; while it is above 0, creating a task is 402 insufficient_balance.',
  })
  owed_cents: number;
}

/** Reference form: available balance, escrow and lifetime spending. */
export class AgentBalanceResponse extends BalanceResponse {
  @ApiProperty({ example: 'CNY' })
  currency: string;

  /** Held for the agent's tasks that are not finished yet. */
  @ApiProperty({ type: 'integer', example: 20000 })
  escrow_cents: number;

  @ApiProperty({ example: 200 })
  escrow_rmb: number;

  /** Money that left the agent for good: worker payouts and platform fees of approved work, plus the worker share of cancelled accepted slots. */
  @ApiProperty({ type: 'integer', example: 45000 })
  lifetime_spent_cents: number;

  @ApiProperty({ example: 450 })
  lifetime_spent_rmb: number;

  /** Time of the latest movement of the agent's money (sign-up time when there has been none). */
  @ApiProperty({ type: String, format: 'date-time' })
  last_updated: Date;
}

export class WorkerBalanceResponse {
  /** Earnings available to withdraw, integer cents. */
  @ApiProperty({ type: 'integer', example: 9000 })
  balance_cents: number;

  @ApiProperty({ example: 90 })
  balance_rmb: number;

  /** Requested withdrawals not settled yet. */
  @ApiProperty({ type: 'integer', example: 0 })
  withdrawing_cents: number;

  @ApiProperty({ example: 0 })
  withdrawing_rmb: number;

  @ApiProperty({ example: 'CNY' })
  currency: string;
}
