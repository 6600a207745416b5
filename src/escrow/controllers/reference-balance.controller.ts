import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AccountViewsService } from '../services/account-views.service';
import { AgentBalanceResponse } from '../dtos/balance.dto';
import { ReferenceTransactionsQuery, TransactionPage } from '../dtos/transactions.dto';

/**
 * The reference payment surface's ledger reads (`/api/v1/payment/balance`, `/transactions`): bearer credential plus
 * X-API-Secret. Its orders and refunds are PaymentModule's ReferenceOrdersController.
 */
@ApiTags('payments')
@Controller('api/v1/payment')
export class ReferenceBalanceController {
  constructor(private readonly views: AccountViewsService) {}

  @Get('balance')
  @Auth({ actors: ['agent'], permission: 'payment:read', apiSecret: true })
  @ApiOperation({
    summary: 'Balance, escrow and lifetime spending',
    description:
      'Reference payment form: needs the API key and its `X-API-Secret`. Available balance, the sum held in escrow by live tasks, and lifetime spending, in cents.',
  })
  @ApiOkResponse({ type: AgentBalanceResponse })
  balance(@CurrentActor() actor: AgentActor): Promise<AgentBalanceResponse> {
    return this.views.fullBalance(actor.id);
  }

  @Get('transactions')
  @Auth({ actors: ['agent'], permission: 'payment:read', apiSecret: true })
  @ApiOperation({
    summary: 'Transactions, most recent first, cursor paged',
    description:
      'One row per movement of the available balance: escrow taken for a task (`payment`, debit), escrow returned ' +
      'or a payment refunded to the payer (`refund`), money added (`deposit`, credit). `amount` is positive cents; ' +
      '`direction` gives the sign. Ledger movements are settled, so their status is `completed`.',
  })
  @ApiOkResponse({ type: TransactionPage })
  @ApiErrors({ 400: ['validation_error'] })
  transactions(
    @CurrentActor() actor: AgentActor,
    @Query() query: ReferenceTransactionsQuery,
  ): Promise<TransactionPage> {
    return this.views.cursorPage(actor.id, query);
  }
}
