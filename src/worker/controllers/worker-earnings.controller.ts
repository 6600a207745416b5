import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { WorkerEarningsResponse } from '../dtos/worker-earnings.dto';
import { WorkerEarningsService } from '../services/worker-earnings.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerEarningsController {
  constructor(private readonly earningsService: WorkerEarningsService) {}

  @Get('earnings')
  @ApiOperation({
    summary: 'What you earned (from the ledger), what you can withdraw and what awaits review',
    description:
      'Totals from the ledger: earned from approved results and cancellation compensation, this month, withdrawn, withdrawable now, and results awaiting the agent’s review.',
  })
  @ApiOkResponse({ type: WorkerEarningsResponse })
  earnings(@CurrentActor() actor: WorkerActor): Promise<WorkerEarningsResponse> {
    return this.earningsService.earnings(actor);
  }
}
