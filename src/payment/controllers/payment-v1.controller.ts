import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  CreatePaymentRequest,
  PaymentOrderResponse,
  PaymentQuery,
  PaymentStatusResponse,
  RechargeRequest,
  RefundRequest,
  RefundResponse,
} from '../dtos/payment-v1.dto';
import { PaymentOrdersService } from '../services/payment-orders.service';
import { RefundService } from '../services/refund.service';
import { RefundErrors } from './refund-docs';
import { Claims } from '../../idempotency/claims.decorator';
import type { HeldClaims } from '../../idempotency/idempotency-context';

/** Machine-readable payment surface (`/v1/payment`): recharge, create, query, refund. */
@ApiTags('payments')
@Controller('v1/payment')
export class PaymentV1Controller {
  constructor(
    private readonly orders: PaymentOrdersService,
    private readonly refunds: RefundService,
  ) {}

  @Post('recharge')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'payment:write' })
  @ApiOperation({
    summary: 'Recharge the balance through an Alipay page payment (from 100 cents)',
    description: 'Open payment_url in a browser; the balance is credited when Alipay confirms the payment.',
  })
  @ApiOkResponse({ type: PaymentOrderResponse })
  @ApiErrors({
    400: ['validation_error', 'payment_method_unavailable', 'daily_limit_exceeded'],
    502: ['provider_error'],
  })
  recharge(@CurrentActor() actor: AgentActor, @Body() dto: RechargeRequest): Promise<PaymentOrderResponse> {
    return this.orders.recharge(actor.id, dto);
  }

  @Post('create')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'payment:write' })
  @ApiOperation({
    summary: 'Create a recharge order with Alipay (page, wap, qr) or WeChat Pay (native, jsapi, h5)',
    description:
      'Creates a payment order with the chosen provider and channel and answers what the payer needs: a page or wap URL or a QR code URL. The balance is credited when the provider confirms, never on redirect. Needs `payment:write`.',
  })
  @ApiOkResponse({ type: PaymentOrderResponse })
  @ApiErrors({
    400: ['validation_error', 'payment_method_unavailable', 'daily_limit_exceeded'],
    502: ['provider_error'],
  })
  create(
    @CurrentActor() actor: AgentActor,
    @Body() dto: CreatePaymentRequest,
  ): Promise<PaymentOrderResponse> {
    return this.orders.create(actor.id, dto);
  }

  @Get('query/:order_id')
  @Auth({ actors: ['agent'], permission: 'payment:read' })
  @ApiOperation({
    summary: 'Status of an order (an open order is checked with the provider first)',
    description:
      'Needs `payment_method`. An order still open is first checked with the provider, so a payment whose notification was lost completes here. Needs `payment:read`.',
  })
  @ApiOkResponse({ type: PaymentStatusResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['order_not_found'] })
  query(
    @CurrentActor() actor: AgentActor,
    @Param('order_id') orderId: string,
    @Query() q: PaymentQuery,
  ): Promise<PaymentStatusResponse> {
    return this.orders.query(actor.id, orderId, q.payment_method);
  }

  @Post('refund')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'payment:write' })
  @ApiOperation({
    summary: 'Refund a completed payment to the payer',
    description:
      'The refund is taken from the available balance at once and sent back through the provider; the total ' +
      'refunded never exceeds the payment. A refund the provider refuses comes back to the balance (status failed).',
  })
  @ApiOkResponse({ type: RefundResponse })
  @RefundErrors()
  refund(
    @CurrentActor() actor: AgentActor,
    @Body() dto: RefundRequest,
    @Claims() claims: HeldClaims,
  ): Promise<RefundResponse> {
    return this.refunds.refundV1(actor.id, dto, claims);
  }
}
