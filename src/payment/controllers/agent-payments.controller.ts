import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { CreatePaymentRequest, PaymentOrderResponse } from '../dtos/payment-v1.dto';
import { PaymentOrdersService } from '../services/payment-orders.service';

/** The compatibility recharge (`/v1/agent/payments/recharge`): the same order as POST /v1/payment/create. */
@ApiTags('payments')
@Controller('v1/agent/payments')
export class AgentPaymentsController {
  constructor(private readonly orders: PaymentOrdersService) {}

  @Post('recharge')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'payment:write' })
  @ApiOperation({
    summary:
      'Simplified recharge: page payment for Alipay, QR code for WeChat Pay unless payment_type says otherwise',
  })
  @ApiOkResponse({ type: PaymentOrderResponse })
  @ApiBadRequestResponse({
    type: ErrorEnvelope,
    description: 'validation_error, payment_method_unavailable, daily_limit_exceeded',
  })
  @ApiBadGatewayResponse({ type: ErrorEnvelope, description: 'provider_error (with order_id)' })
  recharge(
    @CurrentActor() actor: AgentActor,
    @Body() dto: CreatePaymentRequest,
  ): Promise<PaymentOrderResponse> {
    return this.orders.create(actor.id, dto);
  }
}
