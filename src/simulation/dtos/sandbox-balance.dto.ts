import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { LIMITS } from '../../payment/payment-rules';

export class SandboxBalanceRequest {
  @ApiProperty({
    type: 'integer',
    minimum: LIMITS.rechargeMinCents,
    maximum: LIMITS.paymentMaxCents,
    example: 100000,
    description:
      'CNY cents to add to the available balance (a recharge paid at once by the provider sandbox).',
  })
  @IsInt()
  @Min(LIMITS.rechargeMinCents)
  @Max(LIMITS.paymentMaxCents)
  amount_cents: number;
}

export class SandboxBalanceResponse {
  @ApiProperty({ description: 'The recharge order that carried the money (listed among your transactions).' })
  order_id: string;

  @ApiProperty({ type: 'integer' })
  amount_cents: number;

  @ApiProperty({ example: 'completed' })
  status: string;

  @ApiProperty({ type: 'integer', description: 'Available balance after the credit.' })
  balance_cents: number;

  @ApiProperty()
  balance_rmb: number;
}
