import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { AccountViewsService } from '../services/account-views.service';
import { BalanceResponse } from '../dtos/balance.dto';

/** Machine-readable payment surface (`/v1/payment`): the short balance form. */
@ApiTags('payments')
@Controller('v1/payment')
export class PaymentBalanceController {
  constructor(private readonly views: AccountViewsService) {}

  @Get('balance')
  @Auth({ actors: ['agent'], permission: 'payment:read' })
  @ApiOperation({
    summary: 'Available balance in cents and RMB (escrow not included)',
    description:
      'Your available balance in cents and in RMB. Money held in escrow by live tasks is not included (see /api/v1/payment/balance). Needs `payment:read`.',
  })
  @ApiOkResponse({ type: BalanceResponse })
  balance(@CurrentActor() actor: AgentActor): Promise<BalanceResponse> {
    return this.views.shortBalance(actor.id);
  }
}
