import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, IsUUID, Length, Matches, Max, Min } from 'class-validator';

export class AgentIdParam {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  id: string;
}

export class AdminCreditRequest {
  /** Cents to add to the agent's available balance. */
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100_000_000, example: 500000 })
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  amount_cents: number;

  /** Why the money is credited (for example the bank transfer reference); shown in the agent's transactions. */
  @ApiProperty({ minLength: 1, maxLength: 500, example: 'Bank transfer received, ref 2024-0042' })
  @IsString()
  @Length(1, 500)
  @Matches(/\S/, { message: 'reason must not be blank' })
  reason: string;
}

export class AdminCreditResponse {
  /** The deposit as it appears in the agent's transactions. */
  @ApiProperty({ example: 'txn_1042' })
  transaction_id: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ type: 'integer', example: 500000 })
  amount_cents: number;

  @ApiProperty()
  reason: string;

  /** The agent's available balance right after this credit. */
  @ApiProperty({ type: 'integer', example: 750000 })
  balance_cents: number;

  @ApiProperty({ example: 7500 })
  balance_rmb: number;

  @ApiProperty({ format: 'uuid', description: 'The operator who credited.' })
  credited_by: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;
}
