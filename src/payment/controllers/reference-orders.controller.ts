import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPaymentRequiredResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
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
  @ApiBadRequestResponse({
    type: ErrorEnvelope,
    description:
      'validation_error, amount_mismatch (with expected_amount, provided_amount), payment_method_unavailable, ' +
      'daily_limit_exceeded',
  })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: 'task_not_found' })
  @ApiConflictResponse({ type: ErrorEnvelope, description: 'duplicate_order' })
  @ApiBadGatewayResponse({ type: ErrorEnvelope, description: 'provider_error (with order_id)' })
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
  })
  @ApiOkResponse({ type: ReferenceOrderStatusResponse })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: 'order_not_found' })
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
  @ApiBadRequestResponse({
    type: ErrorEnvelope,
    description: 'validation_error, refund_not_allowed, already_refunded (with refund_id, refunded_at)',
  })
  @ApiPaymentRequiredResponse({ type: ErrorEnvelope, description: 'insufficient_balance' })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: 'order_not_found' })
  refund(
    @CurrentActor() actor: AgentActor,
    @Body() dto: ReferenceRefundRequest,
  ): Promise<ReferenceRefundResponse> {
    return this.refunds.refundReference(actor.id, dto);
  }
}
