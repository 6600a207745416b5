import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AccountViewsService } from '../services/account-views.service';
import { AgentTransactionsQuery, PaginatedTransactions } from '../dtos/transactions.dto';

@ApiTags('statistics')
@Controller(['v1/agent', 'api/v1/agent'])
export class AgentTransactionsController {
  constructor(private readonly views: AccountViewsService) {}

  @Get('transactions')
  @Auth({ actors: ['agent'], schemes: ['jwt'] })
  @ApiOperation({
    summary: "The agent's transactions, most recent first, offset paged (console session only)",
    description:
      'The same rows as GET /api/v1/payment/transactions: `amount` is positive cents and `direction` gives the ' +
      'sign. `start_date`/`end_date` accept ISO 8601 dates (a bare end date includes its whole UTC day) or date-times.',
  })
  @ApiOkResponse({ type: PaginatedTransactions })
  @ApiErrors({ 400: ['validation_error'] })
  transactions(
    @CurrentActor() actor: AgentActor,
    @Query() query: AgentTransactionsQuery,
  ): Promise<PaginatedTransactions> {
    return this.views.offsetPage(actor.id, query);
  }
}
