import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { PaymentHealthResponse, ProviderHealthView } from '../dtos/payment-health.dto';
import { PaymentStatusResponse } from '../dtos/payment-v1.dto';
import {
  AdminWithdrawalListResponse,
  AdminWithdrawalResponse,
  ConfirmBankTransferRequest,
  ListWithdrawalsQuery,
  RejectWithdrawalRequest,
} from '../dtos/withdrawal.dto';
import { AdminPaymentsService } from '../services/admin-payments.service';
import { PaymentHealthService } from '../services/payment-health.service';
import { WithdrawalService } from '../services/withdrawal.service';

/** Operator payment console: withdrawal review, bank transfer receipts, provider health. */
@ApiTags('operator')
@ApiExtraModels(ProviderHealthView)
@Auth({ actors: ['admin'] })
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin')
export class AdminPaymentsController {
  constructor(
    private readonly withdrawals: WithdrawalService,
    private readonly payments: AdminPaymentsService,
    private readonly health: PaymentHealthService,
  ) {}

  @Get('withdrawals')
  @ApiOperation({
    summary: 'Withdrawals, oldest first, optionally by status (pending_review is the review queue)',
    description:
      'Withdrawals oldest first, optionally by status; `pending_review` is the review queue. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminWithdrawalListResponse })
  list(@Query() q: ListWithdrawalsQuery): Promise<AdminWithdrawalListResponse> {
    return this.withdrawals.list(q);
  }

  @Post('withdrawals/:id/approve')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve a withdrawal in review: the transfer to the worker follows at once',
    description:
      'Approves a withdrawal waiting in `pending_review`; the transfer to the worker’s payout account starts at once. 409 when it is not in review. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminWithdrawalResponse })
  @ApiErrors({ 404: ['not_found'], 409: ['invalid_state'] })
  approve(@OperatorRequest() who: AuditActor, @Param('id') id: string): Promise<AdminWithdrawalResponse> {
    return this.withdrawals.approve(who, id);
  }

  @Post('withdrawals/:id/reject')
  @HttpCode(200)
  @ApiOperation({
    summary: "Reject a withdrawal in review: the amount returns to the worker's balance",
    description:
      'Rejects a withdrawal in review with a reason; the amount returns to the worker’s withdrawable balance. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminWithdrawalResponse })
  @ApiErrors({ 404: ['not_found'], 409: ['invalid_state'] })
  reject(
    @OperatorRequest() who: AuditActor,
    @Param('id') id: string,
    @Body() dto: RejectWithdrawalRequest,
  ): Promise<AdminWithdrawalResponse> {
    return this.withdrawals.reject(who, id, dto.reason);
  }

  @Post('payments/:order_id/confirm-bank-transfer')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm that the bank transfer for an open bank_transfer order arrived: the order completes',
    description:
      "The agent's balance is credited once, from the bank clearing account, as the order's deposit.",
  })
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiErrors({ 404: ['order_not_found'], 409: ['conflict', 'invalid_state'] })
  confirmBankTransfer(
    @OperatorRequest() who: AuditActor,
    @Param('order_id') orderId: string,
    @Body() dto: ConfirmBankTransferRequest,
  ): Promise<PaymentStatusResponse> {
    return this.payments.confirmBankTransfer(who, orderId, dto.bank_reference);
  }

  @Get('payments/health')
  @ApiOperation({
    summary: 'Provider reachability now (uncached), with errors and probe latency',
    description:
      'Probes each provider now (no cache) with a signed request and reports reachability, latency and the error if any. Operator JWT.',
  })
  @ApiOkResponse({ type: PaymentHealthResponse })
  paymentsHealth(): Promise<PaymentHealthResponse> {
    return this.health.check();
  }
}
