import { Body, Controller, Get, Patch, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Auth } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
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
@ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
@Controller('v1/admin/agents')
export class AdminAgentsController {
  constructor(private readonly agents: AdminAgentsService) {}

  @Get()
  @ApiOperation({ summary: 'Agent accounts, newest first' })
  @ApiOkResponse({ type: AdminAgentListResponse })
  list(@Query() query: ListAgentsQuery): Promise<AdminAgentListResponse> {
    return this.agents.list(query);
  }

  @Patch(':id')
  @ApiOperation({
    summary: "Change an agent's tier (and so its rate limits), fee override or account status",
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: AdminAgentResponse })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: 'not_found' })
  update(@UuidParam('id') id: string, @Body() dto: UpdateAgentRequest): Promise<AdminAgentResponse> {
    return this.agents.update(id, dto);
  }
}
