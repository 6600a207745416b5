import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import { CreateTaskRequest } from '../dtos/create-task.dto';
import { SpendApprovalResponse } from '../dtos/spend-approval.dto';
import { SpendApprovals } from '../services/spend-approvals';
import { CreateTaskBody } from './agent-task-docs';

/**
 * Approval of one task over the spend cap (product-decisions §21). The agent asks with its API key; the person
 * decides in the console with the agent's JWT only, so a key can never approve its own spending.
 */
@ApiTags('spend approvals')
@Controller(['v1/spend-approvals', 'api/v1/spend-approvals'])
export class SpendApprovalsController {
  constructor(private readonly approvals: SpendApprovals) {}

  @Post()
  @Auth({ actors: ['agent'], schemes: ['api_key'], permission: 'task:create' })
  @ApiOperation({
    summary: "Ask the agent's person to approve one task over the spend cap",
    description:
      'The body is the task exactly as it will be created. Answers an approval with its `approval_url`: a person ' +
      'signed in to the console opens it and approves or declines. Once approved, create the task with the same ' +
      'body plus `spend_approval_id` within `expires_at` (30 minutes): that one creation passes the cap. The task ' +
      "may cost at most the key's `approval_ceiling_cents` (402 spend_approval_over_ceiling otherwise).",
  })
  @CreateTaskBody()
  @ApiCreatedResponse({ type: SpendApprovalResponse })
  @ApiErrors({
    400: ['validation_error'],
    402: ['spend_approval_over_ceiling'],
    403: ['forbidden'],
  })
  request(@CurrentActor() actor: AgentActor, @Body() dto: CreateTaskRequest): Promise<SpendApprovalResponse> {
    return this.approvals.request(actor, dto);
  }

  @Get(':approval_id')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'A spend approval and its status',
    description:
      'The approval as the console page shows it (product-decisions §21): the task body it is bound to, its cost, and whether a person approved or declined it; pending until then, expired after 30 minutes.',
  })
  @ApiParam({ name: 'approval_id', format: 'uuid' })
  @ApiOkResponse({ type: SpendApprovalResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  get(
    @CurrentActor() actor: AgentActor,
    @UuidParam('approval_id') id: string,
  ): Promise<SpendApprovalResponse> {
    return this.approvals.get(actor.id, id);
  }

  @Post(':approval_id/approve')
  @HttpCode(200)
  @Auth({ actors: ['agent'], schemes: ['jwt'] })
  @ApiOperation({
    summary: 'Approve one task over the spend cap (console session only)',
    description: 'Once: an approval already decided, used or expired is 409 and nothing changes.',
  })
  @ApiParam({ name: 'approval_id', format: 'uuid' })
  @ApiOkResponse({ type: SpendApprovalResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'], 409: ['invalid_state'] })
  approve(
    @CurrentActor() actor: AgentActor,
    @UuidParam('approval_id') id: string,
  ): Promise<SpendApprovalResponse> {
    return this.approvals.decide(actor.id, id, true);
  }

  @Post(':approval_id/decline')
  @HttpCode(200)
  @Auth({ actors: ['agent'], schemes: ['jwt'] })
  @ApiOperation({
    summary: 'Decline one task over the spend cap (console session only)',
    description: 'Nothing is created or held. Once: an approval already decided is 409 and nothing changes.',
  })
  @ApiParam({ name: 'approval_id', format: 'uuid' })
  @ApiOkResponse({ type: SpendApprovalResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'], 409: ['invalid_state'] })
  decline(
    @CurrentActor() actor: AgentActor,
    @UuidParam('approval_id') id: string,
  ): Promise<SpendApprovalResponse> {
    return this.approvals.decide(actor.id, id, false);
  }
}
