import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPaymentRequiredResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { WithdrawalRequest, WithdrawalResponse } from '../dtos/withdrawal.dto';
import { WithdrawalService } from '../services/withdrawal.service';

/** Worker payouts (`/v1/payment/withdraw`). */
@ApiTags('payments')
@Controller('v1/payment')
export class WithdrawalController {
  constructor(private readonly withdrawals: WithdrawalService) {}

  @Post('withdraw')
  @HttpCode(200)
  @Auth({ actors: ['worker'] })
  @ApiOperation({
    summary: 'Withdraw earnings to an Alipay account',
    description:
      'The amount leaves the available balance at once. From 50000 cents, and for a first withdrawal, an operator ' +
      'reviews it (pending_review); otherwise it is transferred at once. A failed or rejected withdrawal returns ' +
      'the amount to the balance.',
  })
  @ApiOkResponse({ type: WithdrawalResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error, payment_method_unavailable' })
  @ApiPaymentRequiredResponse({ type: ErrorEnvelope, description: 'insufficient_balance' })
  withdraw(@CurrentActor() actor: WorkerActor, @Body() dto: WithdrawalRequest): Promise<WithdrawalResponse> {
    return this.withdrawals.request(actor.id, dto);
  }
}
