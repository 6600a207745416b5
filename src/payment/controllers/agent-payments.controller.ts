import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
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
    description:
      'Creates a recharge order the short way: Alipay answers a page-payment URL, WeChat Pay a QR code URL. The balance is credited when the provider confirms (notification or query), never on redirect.',
  })
  @ApiOkResponse({ type: PaymentOrderResponse })
  @ApiErrors({
    400: ['validation_error', 'payment_method_unavailable', 'daily_limit_exceeded'],
    502: ['provider_error'],
  })
  recharge(
    @CurrentActor() actor: AgentActor,
    @Body() dto: CreatePaymentRequest,
  ): Promise<PaymentOrderResponse> {
    return this.orders.create(actor.id, dto);
  }
}
