import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  ReferenceCreateOrderRequest,
  ReferenceOrderQuery,
  ReferenceOrderResponse,
  ReferenceOrderStatusResponse,
  ReferenceRefundRequest,
  ReferenceRefundResponse,
} from '../dtos/payment-reference.dto';
import { ReferencePaymentsService } from '../services/reference-payments.service';
import { RefundService } from '../services/refund.service';
import { RefundErrors } from './refund-docs';
import { Claims } from '../../idempotency/claims.decorator';
import type { HeldClaims } from '../../idempotency/idempotency-context';

/**
 * The reference payment surface's orders (`/api/v1/payment/create`, `/query`, `/refund`): bearer credential plus
 * X-API-Secret; orders pay for tasks. Its balance and transactions are EscrowModule's ReferenceBalanceController.
 */
@ApiTags('payments')
@Controller('api/v1/payment')
export class ReferenceOrdersController {
  constructor(
    private readonly payments: ReferencePaymentsService,
    private readonly refunds: RefundService,
  ) {}

  @Post('create')
  @HttpCode(201)
  @Auth({ actors: ['agent'], permission: 'payment:write', apiSecret: true })
  @ApiOperation({
    summary: 'Create a payment order for a task',
    description:
      "The amount must equal the task's total_cents (USD: converted at FX_USD_CNY). One open or completed order " +
      'per task. On completion the CNY amount is credited to the balance as a deposit carrying the task_id.',
  })
  @ApiCreatedResponse({ type: ReferenceOrderResponse })
  @ApiErrors({
    400: ['validation_error', 'amount_mismatch', 'payment_method_unavailable', 'daily_limit_exceeded'],
    404: ['task_not_found'],
    409: ['duplicate_order'],
    502: ['provider_error'],
  })
  create(
    @CurrentActor() actor: AgentActor,
    @Body() dto: ReferenceCreateOrderRequest,
  ): Promise<ReferenceOrderResponse> {
    return this.payments.create(actor.id, dto);
  }

  @Get('query')
  @Auth({ actors: ['agent'], permission: 'payment:read', apiSecret: true })
  @ApiOperation({
    summary: "Order status with the task's cost breakdown (an open order is checked with the provider)",
    description:
      'Reference payment form (API key plus `X-API-Secret`). An order still open is first checked with the provider, so a payment whose notification was lost is completed here.',
  })
  @ApiOkResponse({ type: ReferenceOrderStatusResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['order_not_found'] })
  query(
    @CurrentActor() actor: AgentActor,
    @Query() q: ReferenceOrderQuery,
  ): Promise<ReferenceOrderStatusResponse> {
    return this.payments.query(actor.id, q.order_id);
  }

  @Post('refund')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'payment:write', apiSecret: true })
  @ApiOperation({
    summary: 'Refund a completed order to the payer (whole or partial)',
    description:
      'refund_method original (default) returns the money through the provider, taken from the available ' +
      'balance; cumulative refunds never exceed the order. refund_method balance is 400 refund_not_allowed: a ' +
      "completed order's money is already balance.",
  })
  @ApiOkResponse({ type: ReferenceRefundResponse })
  @RefundErrors()
  refund(
    @CurrentActor() actor: AgentActor,
    @Body() dto: ReferenceRefundRequest,
    @Claims() claims: HeldClaims,
  ): Promise<ReferenceRefundResponse> {
    return this.refunds.refundReference(actor.id, dto, claims);
  }
}
