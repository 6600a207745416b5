import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import { DisputeView, OpenDisputeRequest } from '../dtos/disputes.dto';
import { DisputesService } from '../services/disputes.service';

/** The worker's side of a dispute (worker JWT), on both prefixes like the other worker routes. */
@ApiTags('worker disputes')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/assignments', 'api/v1/worker/assignments'])
export class WorkerDisputesController {
  constructor(private readonly disputes: DisputesService) {}

  @Post(':assignment_id/dispute')
  @ApiOperation({
    summary: 'Dispute a rejection of your result',
    description:
      'Within 72 hours of the rejection (on the task’s time), once per rejection. The agent may answer within 48 hours; then an operator decides: the rejection stands, or you are paid what approval would have paid, or a share. You hear each step on your socket (`dispute.answered`, `dispute.decided`). Photos must be your own uploads. Later than 72 hours: 409 dispute_window_closed.',
  })
  @ApiCreatedResponse({ type: DisputeView })
  @ApiErrors({
    400: ['validation_error'],
    404: ['assignment_not_found'],
    409: ['invalid_state', 'already_disputed', 'dispute_window_closed'],
  })
  open(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
    @Body() dto: OpenDisputeRequest,
  ): Promise<DisputeView> {
    return this.disputes.open(actor, assignmentId, dto);
  }

  @Get(':assignment_id/dispute')
  @ApiOperation({
    summary: 'Your dispute of this assignment’s rejection: where it stands and the decision',
    description:
      'Both sides’ words, the agent’s deadline and, once decided, the outcome and what it paid you.',
  })
  @ApiOkResponse({ type: DisputeView })
  @ApiErrors({ 400: ['validation_error'], 404: ['assignment_not_found', 'dispute_not_found'] })
  get(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('assignment_id') assignmentId: string,
  ): Promise<DisputeView> {
    return this.disputes.workerGet(actor, assignmentId);
  }
}
