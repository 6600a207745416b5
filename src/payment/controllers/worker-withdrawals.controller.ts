import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { WorkerWithdrawalPage, WorkerWithdrawalsQuery } from '../dtos/withdrawal.dto';
import { WithdrawalService } from '../services/withdrawal.service';

/** The worker's withdrawal history, on both prefixes like the other worker routes (requests: /v1/payment/withdraw). */
@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerWithdrawalsController {
  constructor(private readonly withdrawals: WithdrawalService) {}

  @Get('withdrawals')
  @ApiOperation({
    summary: 'Your withdrawals with their review state, newest first',
    description:
      'Every withdrawal you requested, newest first, with its status (pending_review, processing, completed, failed, rejected), why it is reviewed, the operator’s reason when rejected and the provider’s when failed. The Alipay account is masked. Cursor paging: pass next_cursor as starting_after. Only your own withdrawals are listed.',
  })
  @ApiOkResponse({ type: WorkerWithdrawalPage })
  @ApiErrors({ 400: ['validation_error'] })
  list(
    @CurrentActor() actor: WorkerActor,
    @Query() q: WorkerWithdrawalsQuery,
  ): Promise<WorkerWithdrawalPage> {
    return this.withdrawals.listOwn(actor.id, q);
  }
}
