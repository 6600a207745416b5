import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { AgentProfileService } from '../services/agent-profile.service';
import { AgentProfileResponse } from '../dtos/agent-profile.dto';

@ApiTags('agent account')
// The profile carries the balance, which GET /v1/payment/balance guards with payment:read (docs/decisions.md).
@Auth({ actors: ['agent'], permission: 'payment:read' })
@Controller(['v1/agent', 'api/v1/agent'])
export class AgentProfileController {
  constructor(private readonly profiles: AgentProfileService) {}

  @Get('profile')
  @ApiOperation({
    summary: "The calling agent's account",
    description:
      'Email, organisation, balance, key prefix, rate limit, concurrent-task limit, account status and timestamps, and the spend caps of the calling API key (or OAuth grant) with what they have counted. Any agent credential.',
  })
  @ApiOkResponse({ type: AgentProfileResponse })
  profile(@CurrentActor() actor: AgentActor): Promise<AgentProfileResponse> {
    return this.profiles.profile(actor);
  }

  @Get('me')
  @ApiOperation({ summary: 'Alias of GET profile', description: 'The same answer as GET /v1/agent/profile.' })
  @ApiOkResponse({ type: AgentProfileResponse })
  me(@CurrentActor() actor: AgentActor): Promise<AgentProfileResponse> {
    return this.profiles.profile(actor);
  }
}
