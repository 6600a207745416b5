import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  AdminDisputeListResponse,
  DisputeDecisionRequest,
  DisputesQuery,
  DisputeView,
} from '../dtos/disputes.dto';
import { DisputeDecisions } from '../services/dispute-decisions.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@Controller('v1/admin/disputes')
export class AdminDisputesController {
  constructor(private readonly decisions: DisputeDecisions) {}

  @Get()
  @ApiOperation({
    summary: 'Disputes of rejections, oldest first (the decision queue with status=awaiting_decision)',
    description:
      'Each with both sides’ words, the rejection’s reason, the slot’s budget and what approval would have paid. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminDisputeListResponse })
  @ApiErrors({ 400: ['validation_error'] })
  list(@Query() q: DisputesQuery): Promise<AdminDisputeListResponse> {
    return this.decisions.list(q.status);
  }

  @Post(':id/decision')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decide a dispute, once',
    description:
      'Once the agent answered or its 48 hours passed (before: 409 dispute_not_decidable). upheld: nothing moves. overturned: the worker is paid exactly what approval would have paid, and the fee, from the agent’s balance. split: worker_percent of the slot’s budget, less its fee, to the worker. What the balance lacks is owed by the agent (never a negative balance). The task’s status does not change. Both sides hear `dispute.decided`; the decision is in the audit log. A second decision: 409 invalid_state. Operator JWT.',
  })
  @ApiOkResponse({ type: DisputeView })
  @ApiErrors({
    400: ['validation_error'],
    404: ['dispute_not_found'],
    409: ['invalid_state', 'dispute_not_decidable'],
  })
  decide(
    @OperatorRequest() who: AuditActor,
    @UuidParam('id') id: string,
    @Body() dto: DisputeDecisionRequest,
  ): Promise<DisputeView> {
    return this.decisions.decide(who, id, dto);
  }
}
