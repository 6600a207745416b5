import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import { AdminAgentsService } from '../services/admin-agents.service';
import {
  AdminAgentListResponse,
  AdminAgentResponse,
  ListAgentsQuery,
  UpdateAgentRequest,
} from '../dtos/admin-agents.dto';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin/agents')
export class AdminAgentsController {
  constructor(private readonly agents: AdminAgentsService) {}

  @Get()
  @ApiOperation({
    summary: 'Agent accounts, newest first',
    description:
      'Agent accounts with their tier, limits, fee override and status, newest first. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminAgentListResponse })
  list(@Query() query: ListAgentsQuery): Promise<AdminAgentListResponse> {
    return this.agents.list(query);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change an agent's tier (and so its rate limits), fee override or account status",
    description:
      'Tier sets the rate limits; `fee_bps` overrides the platform fee for new tasks (null returns to the default); suspending refuses the agent’s credentials at once. Operator JWT.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: AdminAgentResponse })
  @ApiErrors({ 404: ['not_found'] })
  update(
    @OperatorRequest() who: AuditActor,
    @UuidParam('id') id: string,
    @Body() dto: UpdateAgentRequest,
  ): Promise<AdminAgentResponse> {
    return this.agents.update(who, id, dto);
  }
}
