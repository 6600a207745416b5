import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { SandboxBalanceRequest, SandboxBalanceResponse } from '../dtos/sandbox-balance.dto';
import { SandboxFundingService } from '../services/sandbox-funding.service';

/** Sandbox mode only (the module mounts no controller in live mode, so these paths answer 404 there). */
@ApiTags('sandbox')
@Controller(['v1/sandbox', 'api/v1/sandbox'])
export class SandboxBalanceController {
  constructor(private readonly funding: SandboxFundingService) {}

  @Post('balance')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'payment:write' })
  @ApiOperation({
    summary: 'Sandbox only: add test money to your balance at once',
    description:
      'A recharge order is created with the provider sandbox and paid by its simulated buyer; the signed provider ' +
      'notification credits the balance, exactly as a real recharge does. Not served in live mode (404).',
  })
  @ApiOkResponse({ type: SandboxBalanceResponse })
  @ApiErrors({
    400: ['validation_error', 'payment_method_unavailable', 'daily_limit_exceeded'],
    502: ['provider_error'],
  })
  fund(
    @CurrentActor() actor: AgentActor,
    @Body() dto: SandboxBalanceRequest,
  ): Promise<SandboxBalanceResponse> {
    return this.funding.fund(actor, dto);
  }
}
