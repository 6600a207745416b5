import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { AccountViewsService } from '../services/account-views.service';
import { WorkerBalanceResponse } from '../dtos/balance.dto';

@ApiTags('worker')
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerBalanceController {
  constructor(private readonly views: AccountViewsService) {}

  @Get('balance')
  @Auth({ actors: ['worker'] })
  @ApiOperation({
    summary: "The worker's withdrawable earnings and the amount being withdrawn",
    description:
      'What you can withdraw now and what is on its way to your payout account, in cents, from the ledger.',
  })
  @ApiOkResponse({ type: WorkerBalanceResponse })
  balance(@CurrentActor() actor: WorkerActor): Promise<WorkerBalanceResponse> {
    return this.views.workerBalance(actor.id);
  }
}
